/** The service worker's report on the deferred files (Python, the CPU engine), for the notice. */
import type { OfflineFilesStatus, OfflineFilesWatch } from 'local-responses';
import { ExternalStore } from './external-store';

export class OfflineFilesStore extends ExternalStore<OfflineFilesStatus | null> {
  constructor() {
    super(null);
  }

  connect(watch: OfflineFilesWatch): void {
    this.set(watch.current());
    watch.subscribe((status) => this.set(status));
  }
}
