/**
 * "Install app" where the browser offers installation: Chromium fires `beforeinstallprompt`
 * once the page is installable (often before React has mounted, hence a store created at
 * start), and the app keeps the event to show the browser's own dialog from a button.
 */
import { ExternalStore } from './external-store';

/** Chromium's `BeforeInstallPromptEvent` (not in the DOM typings). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

function isInstallPrompt(event: Event): event is InstallPromptEvent {
  return typeof (event as Partial<InstallPromptEvent>).prompt === 'function';
}

export class InstallPromptStore extends ExternalStore<{ available: boolean }> {
  #event: InstallPromptEvent | null = null;

  /** @param target the page's window (an EventTarget in unit tests). */
  constructor(target: EventTarget = window) {
    super({ available: false });
    target.addEventListener('beforeinstallprompt', (event) => {
      if (!isInstallPrompt(event)) return;
      // Not the browser's mini-infobar: the app's own button asks when the person wants it.
      event.preventDefault();
      this.#event = event;
      this.set({ available: true });
    });
    target.addEventListener('appinstalled', () => this.#clear());
  }

  /** Shows the browser's install dialog; the kept event can be used once, whatever the answer. */
  async install(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
    const event = this.#event;
    if (!event) return 'unavailable';
    this.#clear();
    await event.prompt();
    return (await event.userChoice).outcome;
  }

  #clear(): void {
    this.#event = null;
    this.set({ available: false });
  }
}
