/**
 * Offers a new version of the app when one is installed. The new service worker waits
 * (see src/pwa/precache.ts) until the person clicks "Reload": then it takes over and this
 * page reloads. Nothing is reloaded for them, so an answer is never cut off.
 */
import { useEffect, useState } from 'react';
import { SKIP_WAITING_MESSAGE } from 'local-responses';

export interface AppUpdate {
  /** A new version is installed and waits for this page's word. */
  available: boolean;
  /** Another tab started the new version: this page still runs the old code until it reloads. */
  activatedElsewhere: boolean;
  /** Activates the waiting version and reloads the page. */
  apply(): void;
}

export function useAppUpdate(): AppUpdate {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  const [activatedElsewhere, setActivatedElsewhere] = useState(false);
  useEffect(() => {
    const container = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined;
    if (!container) return;
    let live = true;
    // A controller replacing another one is a new version (the first one only claims an
    // uncontrolled page); when this page asked for it, it reloads instead (see apply).
    let controlled = container.controller !== null;
    const onControllerChange = () => {
      if (controlled && !applying && live) {
        setWaiting(null);
        setActivatedElsewhere(true);
      }
      controlled = true;
    };
    container.addEventListener('controllerchange', onControllerChange);
    const watch = (registration: ServiceWorkerRegistration) => {
      // Only an update waits: the first version takes over at once.
      const offer = () => {
        if (live && registration.waiting && container.controller) setWaiting(registration.waiting);
      };
      offer();
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer();
        });
      });
    };
    void container.getRegistration('/').then((registration) => registration && watch(registration));
    return () => {
      live = false;
      container.removeEventListener('controllerchange', onControllerChange);
    };
  }, []);
  return {
    available: waiting !== null,
    activatedElsewhere,
    apply() {
      if (activatedElsewhere) return location.reload();
      if (!waiting) return;
      applying = true;
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
      // The newest waiting version (another tab's registration may have replaced the one we saw).
      void navigator.serviceWorker.getRegistration('/').then((registration) => (registration?.waiting ?? waiting).postMessage({ type: SKIP_WAITING_MESSAGE }));
    },
  };
}

/** Set once this page asked the waiting version to take over (it then reloads itself). */
let applying = false;

export function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  return online;
}
