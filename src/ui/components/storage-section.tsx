/**
 * Stored responses in the Settings dialog: how long the runtime keeps them (applied to the
 * running runtime at once, and given to it at every start), what is stored per chat and
 * from code, and "Clean up now".
 */
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { formatBytes } from '../format';
import { RETENTION_BYTES, RETENTION_DAYS, retentionWire, type RetentionSetting } from '../settings';
import { storageUsage, type StorageUsage } from '../storage-usage';
import type { StorageSummary } from '../api';

type FileTotals = Pick<StorageSummary, 'files' | 'file_bytes' | 'vector_stores' | 'vector_store_bytes'>;
type View = { state: 'loading' } | { state: 'ready'; usage: StorageUsage; files: FileTotals } | { state: 'failed'; message: string };

const NONE = 'none';

function daysLabel(days: number | null): string {
  if (days === null) return 'Forever';
  if (days === 365) return '1 year';
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

function bytesLabel(bytes: number | null): string {
  return bytes === null ? 'No limit' : formatBytes(bytes);
}

/** A `<select>` over the presets; a stored value that is not one of them shows as itself. */
function LimitSelect({ id, label, help, value, presets, describe, onChange }: {
  id: string;
  label: string;
  help: string;
  value: number | null;
  presets: ReadonlyArray<number | null>;
  describe: (v: number | null) => string;
  onChange: (v: number | null) => void;
}) {
  const choices = presets.includes(value) ? presets : [...presets, value];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value === null ? NONE : String(value)} onChange={(e) => onChange(e.target.value === NONE ? null : Number(e.target.value))} aria-describedby={`${id}-help`}>
        {choices.map((choice) => (
          <option key={choice ?? NONE} value={choice === null ? NONE : String(choice)}>
            {presets.includes(choice) ? describe(choice) : `Custom: ${describe(choice)}`}
          </option>
        ))}
      </select>
      <p id={`${id}-help`} className="help">
        {help}
      </p>
    </div>
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function StorageSection() {
  const { settings: store, chat, api } = useServices();
  const settings = useStore(store);
  const { conversations } = useStore(chat);
  // Re-read when a chat or a turn's response comes or goes (a deleted chat frees space),
  // not on every streamed token.
  const chatsKey = conversations.map((c) => `${c.id}:${c.turns.map((t) => t.responseId ?? '').join(',')}`).join('|');
  const [view, setView] = useState<View>({ state: 'loading' });
  const [note, setNote] = useState<string>('');
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const client = await api;
      const [stored, summary] = await Promise.all([client.storedResponses(), client.storageSummary()]);
      setView({ state: 'ready', usage: storageUsage(stored, chat.get().conversations), files: summary });
    } catch (error) {
      setView({ state: 'failed', message: `Could not read what is stored: ${errorText(error)}` });
    }
  }, [api, chat]);

  useEffect(() => {
    void refresh();
  }, [refresh, chatsKey]);

  /** Sends `retention` to the running runtime, which puts it in force and applies it now. */
  const apply = async (retention: RetentionSetting, what: string) => {
    setBusy(true);
    try {
      const result = await (await api).pruneStorage(retentionWire(retention));
      setNote(result.deleted === 0 ? `${what}: nothing to delete.` : `${what}: deleted ${result.deleted} ${result.deleted === 1 ? 'response' : 'responses'} (${formatBytes(result.bytes_freed)}).`);
    } catch (error) {
      setNote(`${what} failed: ${errorText(error)}`);
    } finally {
      setBusy(false);
      // A chat whose responses were pruned went with them (retention deletes the conversation too).
      await Promise.all([refresh(), chat.reload()]);
    }
  };

  const change = (patch: Partial<RetentionSetting>) => {
    const retention = { ...settings.retention, ...patch };
    store.update({ retention });
    void apply(retention, 'Retention applied');
  };

  return (
    <fieldset className="field storage-section">
      <legend>Stored responses</legend>
      <LimitSelect
        id="set-keep-days"
        label="Keep chats for"
        help="Counted from a chat’s last message."
        value={settings.retention.maxAgeDays}
        presets={RETENTION_DAYS}
        describe={daysLabel}
        onChange={(maxAgeDays) => change({ maxAgeDays })}
      />
      <LimitSelect
        id="set-keep-bytes"
        label="Keep up to"
        help="Past this, the oldest chats go first."
        value={settings.retention.maxBytes}
        presets={RETENTION_BYTES}
        describe={bytesLabel}
        onChange={(maxBytes) => change({ maxBytes })}
      />
      <p className="help">
        A change applies at once. A whole chat goes together, never one with an answer still running. Its messages stay in the list here, but it can no longer be continued.
      </p>
      <StorageTable view={view} />
      <div className="storage-actions">
        <button type="button" onClick={() => void apply(settings.retention, 'Clean up')} disabled={busy}>
          Clean up now
        </button>
        <p className="help" role="status">
          {note}
        </p>
      </div>
    </fieldset>
  );
}

function StorageTable({ view }: { view: View }) {
  if (view.state === 'loading') return <p className="help">Reading what is stored…</p>;
  if (view.state === 'failed') return <p className="help error-text">{view.message}</p>;
  const { usage } = view;
  const count = (n: number) => `${n} ${n === 1 ? 'response' : 'responses'}`;
  return (
    <>
      <table className="storage-table" aria-label="Storage used by chat">
        <caption>
          {formatBytes(usage.bytes)} used by {count(usage.responses)}
        </caption>
        <thead>
          <tr>
            <th scope="col">Chat</th>
            <th scope="col">Responses</th>
            <th scope="col">Size</th>
          </tr>
        </thead>
        <tbody>
          {usage.chats.map((c) => (
            <tr key={c.conversationId} data-conversation-id={c.conversationId}>
              <th scope="row">{c.title}</th>
              <td>{c.responses}</td>
              <td>{formatBytes(c.bytes)}</td>
            </tr>
          ))}
          {usage.other.responses > 0 && (
            <tr data-other="">
              <th scope="row">Not from a chat in this app</th>
              <td>{usage.other.responses}</td>
              <td>{formatBytes(usage.other.bytes)}</td>
            </tr>
          )}
          {usage.responses === 0 && (
            <tr>
              <td colSpan={3}>Nothing is stored.</td>
            </tr>
          )}
        </tbody>
      </table>
      <p className="help">
        Responses created from code are listed by <code>GET /v1/local/responses</code>. Deleting a chat deletes its responses.
      </p>
      {view.files.files !== undefined && (
        <p className="help" data-storage-files="">
          Files: {view.files.files} ({formatBytes(view.files.file_bytes ?? 0)}); their search indexes: {view.files.vector_stores ?? 0} ({formatBytes(view.files.vector_store_bytes ?? 0)}). A chat’s files count in its size and go with it.
        </p>
      )}
    </>
  );
}
