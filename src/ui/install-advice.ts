/**
 * What to say about installing the app where the browser has no install prompt of its own
 * (no `beforeinstallprompt`: Firefox, Safari): how to install it there if the browser can,
 * else what to do instead. Where the prompt exists (Chromium) the top bar's Install button
 * speaks, and this says nothing; nor once the app runs installed.
 */
export interface InstallEnvironment {
  /** `'onbeforeinstallprompt' in window`: the browser fires the event the Install button waits for. */
  promptSupported: boolean;
  /** The app already runs as an installed app (`display-mode: standalone`, or iOS `navigator.standalone`). */
  standalone: boolean;
  userAgent: string;
}

const WORKS_HERE = 'The app works fully in this tab, offline too once its files are kept: bookmark it to come back.';

export function installAdvice(env: InstallEnvironment): string | null {
  if (env.promptSupported || env.standalone) return null;
  const ua = env.userAgent;
  if (/\bFirefox\//.test(ua) && /Android/.test(ua)) return 'To install the app, open Firefox’s menu and choose “Add app to Home screen”.';
  if (/\bFirefox\//.test(ua)) return `Firefox does not install web apps on a computer. ${WORKS_HERE} To install it as an app of its own, open it in Chrome or Edge (Install button in the top bar), or in Firefox on Android.`;
  if (/iPhone|iPad|iPod/.test(ua)) return 'To install the app, tap Share, then “Add to Home Screen”.';
  if (/Macintosh/.test(ua) && /Version\/\d+.*Safari\//.test(ua)) return 'To install the app, choose File → “Add to Dock” in Safari (17 or later).';
  return `This browser does not offer to install web apps. ${WORKS_HERE} To install it as an app of its own, open it in Chrome or Edge.`;
}

/** The page's own environment. */
export function currentInstallEnvironment(): InstallEnvironment {
  const standalone = matchMedia('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return { promptSupported: 'onbeforeinstallprompt' in window, standalone, userAgent: navigator.userAgent };
}
