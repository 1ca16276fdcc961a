/** The open conversation: messages, answers, and the composer (Send / Stop). */
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useServices } from '../app-context';
import { answerText, approvalDecisions, isRunning, type Turn } from '../saved-chat';
import { useStore } from '../external-store';
import { Answer } from './answer';
import { EmptyState } from './empty-state';
import { Icon } from './icons';
import { ModelLoadCard } from './load-card';
import { ChatFilesBar } from './chat-files-bar';
import { VECTOR_STORE_KEY } from '../chat-files';

function UserMessage({ turn, editable, onEdit }: { turn: Turn; editable: boolean; onEdit: (text: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(turn.input);
  const id = useId();
  if (editing) {
    return (
      <form
        className="user-message editing"
        onSubmit={(event) => {
          event.preventDefault();
          setEditing(false);
          onEdit(draft);
        }}
      >
        <label htmlFor={id} className="sr-only">
          Edit your message
        </label>
        <textarea
          id={id}
          value={draft}
          autoFocus
          rows={Math.min(10, draft.split('\n').length + 1)}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setEditing(false);
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="row-actions">
          <button type="submit" className="primary" disabled={!draft.trim()}>
            Save and send
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="user-message">
      <div className="user-text">{turn.input}</div>
      {editable && (
        <button
          type="button"
          className="icon-button subtle"
          aria-label="Edit message"
          title="Edit and resend"
          onClick={() => {
            setDraft(turn.input);
            setEditing(true);
          }}
        >
          <Icon name="edit" size={16} />
        </button>
      )}
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="icon-button subtle"
      aria-label={copied ? 'Copied' : 'Copy answer'}
      title="Copy answer"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} size={16} />
    </button>
  );
}

export function ChatView({ ready, onOpenModels }: { ready: boolean; onOpenModels: () => void }) {
  const { chat, models, files, settings: settingsStore } = useServices();
  const state = useStore(chat);
  const settings = useStore(settingsStore);
  useStore(files);
  const conversation = state.conversations.find((c) => c.id === state.activeId) ?? null;
  const vectorStoreId = conversation?.metadata?.[VECTOR_STORE_KEY];
  const chatFiles = files.of(conversation?.id ?? null);
  const reading = files.busy(conversation?.id ?? null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // A chat's files are read from its vector store when it opens (once: attaching updates them here).
  useEffect(() => {
    if (conversation && vectorStoreId && files.of(conversation.id).length === 0) void files.load(conversation.id, vectorStoreId);
  }, [conversation?.id, vectorStoreId, files]); // eslint-disable-line react-hooks/exhaustive-deps
  const attach = (list: FileList | null) => {
    if (!list || list.length === 0 || !ready) return;
    void files.attach([...list]);
  };
  const [draft, setDraft] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const busy = state.running !== null;
  const runningHere = busy && state.running?.conversationId === conversation?.id;
  /** A message held back until its model has downloaded. */
  const [waiting, setWaiting] = useState<string | null>(null);
  // While a file is still being read the model would not find it: the message waits.
  const canSend = ready && !busy && waiting === null && settings.model !== null && draft.trim().length > 0 && !reading;

  const turnCount = conversation?.turns.length ?? 0;
  // Keep the newest text in view while streaming, unless the reader scrolled up. The welcome
  // screen (no turns yet) is read from its top: on a short window it must not open scrolled down.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stick.current && turnCount > 0) el.scrollTop = el.scrollHeight;
  });
  useEffect(() => {
    stick.current = true;
  }, [state.activeId]);

  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !busy) {
      const last = conversation?.turns.at(-1);
      setAnnouncement(last?.status === 'completed' ? 'Answer finished.' : last ? `Answer ${last.status}.` : '');
    }
    if (!wasRunning.current && busy) setAnnouncement('Answering…');
    wasRunning.current = busy;
  }, [busy, conversation]);

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const text = draft;
    setDraft('');
    stick.current = true;
    // A model that is not downloaded yet is downloaded first, through the models store, so the
    // same progress card shows it; the message goes once the model is ready (a response
    // started now would queue a second load of the same model behind the first).
    const model = settings.model;
    if (model && models.cached(model) === false) {
      setWaiting(text);
      void models.download(model).then((ok) => {
        setWaiting(null);
        if (ok) void chat.send(text);
        else setDraft((current) => current || text);
      });
    } else void chat.send(text);
    // Focus stays in the composer: the next message can be typed right away.
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
    if (event.key === 'Escape' && runningHere) void chat.stop();
  };

  const turns = conversation?.turns ?? [];
  const decisions = approvalDecisions(turns);
  const decide = (requestId: string, approve: boolean) => {
    stick.current = true;
    void chat.respondToApproval(requestId, approve);
    // The buttons go away with the answer: keep the focus where the next message is typed.
    inputRef.current?.focus();
  };
  return (
    <main
      className={dragging ? 'chat dragging' : 'chat'}
      aria-label="Chat"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(false);
        attach(e.dataTransfer.files);
      }}
    >
      <div
        className="messages"
        ref={scrollRef}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        }}
      >
        {turns.length === 0 ? (
          <EmptyState onOpenModels={onOpenModels} />
        ) : (
          <ol className="turns" aria-label={`Messages in ${conversation?.title ?? 'this chat'}`}>
            {turns.map((turn, i) => {
              const isLast = i === turns.length - 1;
              return (
                <li key={turn.id} className="turn" data-turn-status={turn.status}>
                  <UserMessage
                    turn={turn}
                    // An approval is answered again with Regenerate, not edited as text.
                    editable={isLast && !busy && ready && !turn.approval}
                    onEdit={(text) => {
                      void chat.editLast(text);
                      inputRef.current?.focus();
                    }}
                  />
                  <Answer
                    turn={turn}
                    approvals={{ decisions, ...(isLast && !isRunning(turn) ? { onDecide: decide } : {}), disabled: busy || !ready || !settings.model }}
                  />
                  {!isRunning(turn) && (
                    <div className="turn-actions">
                      {answerText(turn) && <CopyButton text={answerText(turn)} />}
                      {isLast && (
                        <button
                          type="button"
                          className="icon-button subtle"
                          aria-label="Regenerate answer"
                          title="Regenerate"
                          disabled={busy || !ready || !settings.model}
                          onClick={() => {
                            void chat.regenerate();
                            inputRef.current?.focus();
                          }}
                        >
                          <Icon name="refresh" size={16} />
                        </button>
                      )}
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </div>
      <ModelLoadCard modelId={settings.model} note={waiting !== null ? 'Your message is sent as soon as the model is ready.' : null} />
      <ChatFilesBar files={chatFiles} onRemove={(key) => conversation && void files.remove(conversation.id, key, vectorStoreId)} />
      {reading && (
        <p className="help files-note" role="status">
          Reading the attached files… Send becomes available once they are ready.
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      <form className="composer" onSubmit={send}>
        <input
          ref={fileInputRef}
          type="file"
          multiple
          hidden
          aria-hidden="true"
          tabIndex={-1}
          data-testid="attach-input"
          onChange={(e) => {
            attach(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        <button
          type="button"
          className="icon-button attach-button"
          aria-label="Attach files"
          title="Attach files: the model searches them (they stay in this browser)"
          disabled={!ready || busy}
          onClick={() => fileInputRef.current?.click()}
        >
          <Icon name="paperclip" />
        </button>
        <label htmlFor="composer-input" className="sr-only">
          Message
        </label>
        <textarea
          id="composer-input"
          ref={inputRef}
          value={draft}
          rows={Math.min(8, Math.max(1, draft.split('\n').length))}
          placeholder={settings.model ? 'Send a message' : 'Choose a model to start'}
          aria-describedby="composer-help"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          autoFocus
        />
        <span id="composer-help" className="sr-only">
          Enter sends, Shift+Enter starts a new line, Escape stops the answer.
        </span>
        {runningHere ? (
          <button
            type="button"
            className="send-button stop"
            onClick={() => {
              void chat.stop();
              // The Stop button goes away: keep the focus where the next message is typed.
              inputRef.current?.focus();
            }}
            disabled={state.running?.stopping}
            aria-label="Stop answer"
          >
            <Icon name="stop" />
            <span className="button-text">Stop</span>
          </button>
        ) : (
          <button type="submit" className="send-button" disabled={!canSend} aria-label="Send message">
            <Icon name="send" />
            <span className="button-text">Send</span>
          </button>
        )}
      </form>
    </main>
  );
}
