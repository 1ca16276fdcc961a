/**
 * The files attached to the open chat, above the composer: each with its name (untrusted:
 * plain text), its size and where it is — uploading, being read, ready, or why it failed —
 * and a button that takes it out of the chat.
 */
import type { ChatFile } from '../chat-files';
import { formatBytes } from '../format';
import { Icon } from './icons';

const STATUS: Record<ChatFile['status'], string> = {
  uploading: 'Uploading…',
  in_progress: 'Reading…',
  completed: 'Ready',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function ChatFilesBar({ files, onRemove }: { files: readonly ChatFile[]; onRemove: (key: string) => void }) {
  if (files.length === 0) return null;
  return (
    <ul className="chat-files" aria-label="Files in this chat">
      {files.map((file) => (
        <li key={file.key} className={`chat-file status-${file.status}`} data-file-status={file.status} aria-busy={file.status === 'uploading' || file.status === 'in_progress'}>
          <Icon name="file" size={16} />
          <span className="chat-file-name" title={file.filename}>
            {file.filename}
          </span>
          <span className="chat-file-meta">
            {formatBytes(file.bytes)} · {STATUS[file.status]}
          </span>
          {file.error && <span className="chat-file-error">{file.error}</span>}
          <button type="button" className="icon-button subtle" aria-label={`Remove ${file.filename}`} title="Remove from this chat" onClick={() => onRemove(file.key)}>
            <Icon name="close" size={14} />
          </button>
        </li>
      ))}
    </ul>
  );
}
