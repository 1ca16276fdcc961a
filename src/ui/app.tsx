/** The chat app: sidebar of conversations, the chat, and the Models / Settings / Code dialogs. */
import { useEffect, useState } from 'react';
import { useServices, type RuntimeState } from './app-context';
import { ChatView } from './components/chat-view';
import { CodeDialog } from './components/code-dialog';
import { Icon } from './components/icons';
import { ModelsDialog } from './components/models-dialog';
import { OfflineNotice } from './components/offline-notice';
import { RemoteNotice } from './components/remote-notice';
import { SettingsDialog } from './components/settings-dialog';
import { Sidebar } from './components/sidebar';
import { useStore } from './external-store';
import { modelName } from './model-names';
import { useAppUpdate, useOnline } from './use-app-update';

type Panel = 'models' | 'settings' | 'code' | null;

function RuntimeBadge({ runtime, online }: { runtime: RuntimeState; online: boolean }) {
  const label =
    runtime.state === 'starting'
      ? 'Starting…'
      : runtime.state === 'failed'
        ? 'Runtime failed'
        : online
          ? 'Ready'
          : 'Offline · ready';
  const detail =
    runtime.state === 'ready'
      ? `Ready: /v1 answers on ${location.origin}/v1${runtime.leader ? ' (this tab runs the runtime)' : ''}.`
      : runtime.state === 'failed'
        ? `The local runtime failed to start: ${runtime.message}`
        : 'Starting the local runtime…';
  return (
    <p className={`runtime-badge state-${runtime.state}`} data-runtime-state={runtime.state} title={detail}>
      <span className="dot" aria-hidden="true" />
      <span className="sr-only">{detail}</span>
      <span aria-hidden="true">{label}</span>
    </p>
  );
}

function UpdateBanner({ busy }: { busy: boolean }) {
  const update = useAppUpdate();
  if (!update.available && !update.activatedElsewhere) return null;
  return (
    <div className="update-banner" role="status">
      <span>{update.activatedElsewhere ? 'The app was updated in another tab' : 'Update available'}</span>
      <button type="button" onClick={update.apply} disabled={busy}>
        {busy ? 'Reload after this answer' : 'Reload'}
      </button>
    </div>
  );
}

export function App({ runtime }: { runtime: RuntimeState }) {
  const { chat, models, settings: settingsStore, install } = useServices();
  const installable = useStore(install).available;
  const chatState = useStore(chat);
  const settings = useStore(settingsStore);
  const modelsState = useStore(models);
  const online = useOnline();
  const [panel, setPanel] = useState<Panel>(null);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const ready = runtime.state === 'ready';
  const current = modelsState.models.find((m) => m.id === settings.model);

  useEffect(() => {
    const title = chatState.conversations.find((c) => c.id === chatState.activeId)?.title;
    document.title = title ? `${title} · Local Responses` : 'Local Responses';
  }, [chatState.activeId, chatState.conversations]);

  return (
    <div className={sidebarOpen ? 'app sidebar-open' : 'app'}>
      <a className="skip-link" href="#composer-input">
        Skip to message box
      </a>
      <Sidebar open={sidebarOpen} onNavigate={() => setSidebarOpen(false)} />
      {sidebarOpen && <div className="scrim" aria-hidden="true" onClick={() => setSidebarOpen(false)} />}
      <div className="main">
        <header className="topbar">
          {/* The page's one h1: the bar shows the chosen model where a title would go. */}
          <h1 className="sr-only">Local Responses</h1>
          <button
            type="button"
            className="icon-button menu-button"
            aria-label="Conversations"
            aria-controls="sidebar"
            aria-expanded={sidebarOpen}
            onClick={() => setSidebarOpen((v) => !v)}
          >
            <Icon name="menu" />
          </button>
          <button type="button" className="model-button" onClick={() => setPanel('models')} aria-haspopup="dialog">
            <Icon name="chip" />
            <span className="model-button-text">{settings.model ? modelName(current ?? settings.model) : 'Choose a model'}</span>
          </button>
          <RuntimeBadge runtime={runtime} online={online} />
          <div className="topbar-actions">
            {installable && (
              <button type="button" className="install-button" onClick={() => void install.install()} aria-label="Install app" title="Install this app">
                <Icon name="download" />
                <span className="button-text">Install</span>
              </button>
            )}
            <button type="button" className="icon-button" onClick={() => setPanel('settings')} aria-label="Settings" title="Settings" aria-haspopup="dialog">
              <Icon name="settings" />
            </button>
            <button type="button" className="code-button" onClick={() => setPanel('code')} aria-haspopup="dialog" aria-label="Use from your code">
              <Icon name="code" />
              <span className="button-text">Use from your code</span>
            </button>
          </div>
        </header>
        <UpdateBanner busy={chatState.running !== null} />
        <OfflineNotice />
        <RemoteNotice />
        {runtime.state === 'failed' && (
          <p className="notice warning" role="alert">
            The local runtime failed to start: {runtime.message}. Reload the page to try again.
          </p>
        )}
        <ChatView ready={ready} onOpenModels={() => setPanel('models')} />
      </div>
      <ModelsDialog open={panel === 'models'} onClose={() => setPanel(null)} />
      <SettingsDialog open={panel === 'settings'} onClose={() => setPanel(null)} />
      <CodeDialog open={panel === 'code'} onClose={() => setPanel(null)} />
    </div>
  );
}
