/**
 * The Files view (in Settings): every uploaded file, its size, whether file search can read
 * it (its state in the vector stores that hold it, and why one failed), and Delete. Names
 * and errors come from files: shown as text only.
 */
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { formatBytes } from '../format';

interface Row {
  id: string;
  filename: string;
  bytes: number;
  /** Worst state among the stores that hold it; null when in none. */
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled' | null;
  error: string | null;
}

type View = { state: 'loading' } | { state: 'ready'; rows: Row[] } | { state: 'failed'; message: string };

const RANK = { failed: 3, in_progress: 2, cancelled: 1, completed: 0 } as const;
const LABEL: Record<NonNullable<Row['status']>, string> = { in_progress: 'Reading…', completed: 'Ready', failed: 'Failed', cancelled: 'Cancelled' };

export function FilesSection() {
  const { api, files, chat } = useServices();
  const attached = useStore(files);
  const { conversations } = useStore(chat);
  const [view, setView] = useState<View>({ state: 'loading' });
  const [note, setNote] = useState('');

  const refresh = useCallback(async () => {
    try {
      const { client } = await api;
      const states = new Map<string, Pick<Row, 'status' | 'error'>>();
      for await (const store of client.vectorStores.list({ limit: 100 }))
        for await (const row of client.vectorStores.files.list(store.id, { limit: 100 })) {
          const known = states.get(row.id);
          if (!known?.status || RANK[row.status] > RANK[known.status]) states.set(row.id, { status: row.status, error: row.last_error?.message ?? null });
        }
      const rows: Row[] = [];
      for await (const file of client.files.list({ limit: 100 })) rows.push({ id: file.id, filename: file.filename, bytes: file.bytes, ...(states.get(file.id) ?? { status: null, error: null }) });
      setView({ state: 'ready', rows });
    } catch (error) {
      setView({ state: 'failed', message: `Could not list the files: ${error instanceof Error ? error.message : String(error)}` });
    }
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh, attached, conversations.length]);

  const remove = async (row: Row) => {
    try {
      await (await api).client.files.delete(row.id);
      setNote(`Deleted ${row.filename}.`);
    } catch (error) {
      setNote(`Could not delete ${row.filename}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await refresh();
  };

  return (
    <fieldset className="field files-section">
      <legend>Files</legend>
      <p className="help">Files attached to chats or uploaded from code (<code>POST /v1/files</code>). They never leave this browser. Deleting a file removes it from every chat that has it.</p>
      {view.state === 'loading' && <p className="help">Reading the files…</p>}
      {view.state === 'failed' && <p className="help error-text">{view.message}</p>}
      {view.state === 'ready' && (
        <table className="storage-table files-table" aria-label="Uploaded files">
          <caption>
            {view.rows.length} {view.rows.length === 1 ? 'file' : 'files'}, {formatBytes(view.rows.reduce((sum, r) => sum + r.bytes, 0))}
          </caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Size</th>
              <th scope="col">Search</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row) => (
              <tr key={row.id} data-file-id={row.id}>
                <th scope="row">{row.filename}</th>
                <td>{formatBytes(row.bytes)}</td>
                <td className={row.status === 'failed' ? 'error-text' : undefined}>{row.status ? LABEL[row.status] + (row.error ? `: ${row.error}` : '') : 'Not in a chat'}</td>
                <td>
                  <button type="button" onClick={() => void remove(row)} aria-label={`Delete ${row.filename}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {view.rows.length === 0 && (
              <tr>
                <td colSpan={4}>No files.</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      <p className="help" role="status">
        {note}
      </p>
    </fieldset>
  );
}
