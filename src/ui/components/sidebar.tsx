/** Conversations, newest first: open, rename, export as JSON, delete (with its stored responses). */
import { useEffect, useRef, useState } from 'react';
import { useServices } from '../app-context';
import type { Conversation } from '../saved-chat';
import { useStore } from '../external-store';
import { Icon } from './icons';

function when(ms: number): string {
  const date = new Date(ms);
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

function fileName(title: string): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return `${slug || 'conversation'}.json`;
}

function ConversationRow({ conversation, active, onOpen }: { conversation: Conversation; active: boolean; onOpen: () => void }) {
  const { chat } = useServices();
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string | null>(null);

  if (mode === 'rename') {
    const save = () => {
      void chat.rename(conversation.id, title);
      setMode('view');
    };
    return (
      <li className="conversation renaming">
        <input
          aria-label="Conversation title"
          value={title}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') save();
            if (e.key === 'Escape') setMode('view');
          }}
          onBlur={save}
        />
      </li>
    );
  }
  if (mode === 'delete') {
    return (
      <li className="conversation confirming" role="group" aria-label={`Delete ${conversation.title}?`}>
        <span className="confirm-text">Delete “{conversation.title}”?</span>
        <div className="row-actions">
          <button type="button" className="danger" autoFocus onClick={() => void chat.remove(conversation.id)}>
            Delete
          </button>
          <button type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </div>
      </li>
    );
  }
  const exportJson = async () => {
    try {
      const json = await chat.exportJson(conversation.id);
      const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName(conversation.title);
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <li className={active ? 'conversation active' : 'conversation'}>
      <button type="button" className="conversation-open" aria-current={active ? 'page' : undefined} onClick={onOpen}>
        <span className="conversation-title">{conversation.title}</span>
        <span className="conversation-date">{when(conversation.updatedAt)}</span>
      </button>
      <div className="conversation-actions">
        <button type="button" className="icon-button subtle" aria-label={`Rename ${conversation.title}`} title="Rename" onClick={() => { setTitle(conversation.title); setMode('rename'); }}>
          <Icon name="edit" size={16} />
        </button>
        <button type="button" className="icon-button subtle" aria-label={`Export ${conversation.title} as JSON`} title="Export as JSON" onClick={() => void exportJson()}>
          <Icon name="download" size={16} />
        </button>
        <button type="button" className="icon-button subtle" aria-label={`Delete ${conversation.title}`} title="Delete" onClick={() => setMode('delete')}>
          <Icon name="trash" size={16} />
        </button>
      </div>
      {error && (
        <p className="row-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function Sidebar({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { chat } = useServices();
  const state = useStore(chat);
  const ref = useRef<HTMLElement>(null);
  // As a drawer (phone width): focus moves into it when it opens; Escape closes it.
  useEffect(() => {
    if (open) ref.current?.querySelector<HTMLElement>('.new-chat')?.focus();
  }, [open]);
  return (
    <aside
      id="sidebar"
      ref={ref}
      className={open ? 'sidebar open' : 'sidebar'}
      aria-label="Conversations"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          onNavigate();
          document.querySelector<HTMLElement>('.menu-button')?.focus();
        }
      }}
    >
      <div className="sidebar-head">
        <button
          type="button"
          className="new-chat"
          onClick={() => {
            chat.select(null);
            onNavigate();
            document.getElementById('composer-input')?.focus();
          }}
        >
          <Icon name="plus" /> New chat
        </button>
        <button type="button" className="icon-button close-drawer" aria-label="Close conversations" onClick={onNavigate}>
          <Icon name="close" />
        </button>
      </div>
      <nav className="conversation-nav" aria-label="Conversation list">
        {state.loaded && state.conversations.length === 0 && <p className="muted sidebar-empty">No conversations yet.</p>}
        <ul className="conversation-list">
          {state.conversations.map((c) => (
            <ConversationRow
              key={c.id}
              conversation={c}
              active={c.id === state.activeId}
              onOpen={() => {
                chat.select(c.id);
                onNavigate();
              }}
            />
          ))}
        </ul>
      </nav>
    </aside>
  );
}
