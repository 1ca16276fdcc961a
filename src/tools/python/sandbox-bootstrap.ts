/**
 * The sandbox frame's only inline script. A `srcdoc` frame inherits the app's
 * Content-Security-Policy (see `pwa/security-headers.ts`), which allows inline script by
 * hash only: so this text is a constant (a minifier must not rewrite it, hence a string,
 * not a function), and its hash is in the app's policy. It loads the frame's real code,
 * which the page posts with the hello, from a `blob:` URL of the frame's own opaque
 * origin, then hands that code the hello and its port as if it had been listening.
 */
export const SANDBOX_BOOTSTRAP =
  "addEventListener('message',function boot(e){var d=e.data;" +
  "if(e.source!==parent||!d||typeof d.main!=='string'||typeof d.hello!=='string')return;" +
  "removeEventListener('message',boot);var ports=Array.prototype.slice.call(e.ports);" +
  "var s=document.createElement('script');" +
  "s.src=URL.createObjectURL(new Blob([d.main],{type:'text/javascript'}));" +
  "s.onload=function(){dispatchEvent(new MessageEvent('message',{data:d.hello,ports:ports,source:parent}))};" +
  'document.head.append(s)})';

/** `'sha256-…'` of {@link SANDBOX_BOOTSTRAP} (a unit test keeps it in step). */
export const SANDBOX_BOOTSTRAP_HASH = 'sha256-dwMeQBrPoFnU3gJ7rIGJL8hkpmQRWtoy9TLBS2WMs5M=';

/** What the page posts to the frame once it has loaded (with the port transferred). */
export interface SandboxBootMessage {
  hello: string;
  /** The frame's code, run as a script of the frame. */
  main: string;
}
