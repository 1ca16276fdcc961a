import { loadSettings, saveSettings, type AppDatabase } from './app-db';
import { ExternalStore } from './external-store';
import { DEFAULT_SETTINGS, type Settings } from './settings';

/** Settings as React state, written through to the app database on every change. */
export class SettingsStore extends ExternalStore<Settings & { loaded: boolean }> {
  readonly ready: Promise<void>;

  constructor(private readonly db: Promise<AppDatabase>) {
    super({ ...DEFAULT_SETTINGS, loaded: false });
    this.ready = db
      .then(loadSettings)
      .catch((error: unknown) => {
        console.error('Could not read the settings; using the defaults', error);
        return DEFAULT_SETTINGS;
      })
      .then((settings) => {
        this.set({ ...settings, loaded: true });
        // Changes made before the stored settings were read win over them, and are saved.
        if (Object.keys(this.#changedEarly).length > 0) this.update(this.#changedEarly);
      });
  }

  #changedEarly: Partial<Settings> = {};

  update(patch: Partial<Settings>): void {
    if (!this.get().loaded) this.#changedEarly = { ...this.#changedEarly, ...patch };
    const next = { ...this.get(), ...patch };
    this.set(next);
    if (next.loaded) {
      const { loaded: _, ...settings } = next;
      this.db.then((db) => saveSettings(db, settings)).catch((error: unknown) => console.error('Could not save the settings', error));
    }
  }

  settings = (): Settings => {
    const { loaded: _, ...settings } = this.get();
    return settings;
  };
}
