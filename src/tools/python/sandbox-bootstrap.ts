/**
 * The sandbox frame's only inline script. A `srcdoc` frame inherits the app's
 * Content-Security-Policy (see `pwa/security-headers.ts`), which allows inline script by
 * hash only: so this text is a constant (a minifier must not rewrite it, hence a string,
 * not a function), and its hash is in the app's policy. It loads the frame's real code,
 * which the page posts with the hello, from a `blob:` URL of the frame's own opaque
 * origin, then hands that code the hello and its port in a `sandbox-boot` event (see
 * {@link SandboxBootDetail}).
 *
 * Not a synthetic `MessageEvent` with `source: parent`: Firefox's constructor refuses a
 * cross-origin `parent` as `source` (a TypeError, so Python never started there). The
 * parent check is made here, on the real message; only the frame's own scripts can
 * dispatch an event on its window.
 */
export const SANDBOX_BOOTSTRAP =
  "addEventListener('message',function boot(e){var d=e.data;" +
  "if(e.source!==parent||!d||typeof d.main!=='string'||typeof d.hello!=='string')return;" +
  "removeEventListener('message',boot);var ports=Array.prototype.slice.call(e.ports);" +
  "var s=document.createElement('script');" +
  "s.src=URL.createObjectURL(new Blob([d.main],{type:'text/javascript'}));" +
  "s.onload=function(){dispatchEvent(new CustomEvent('sandbox-boot',{detail:{hello:d.hello,ports:ports}}))};" +
  'document.head.append(s)})';

/** `'sha256-…'` of {@link SANDBOX_BOOTSTRAP} (a unit test keeps it in step). */
export const SANDBOX_BOOTSTRAP_HASH = 'sha256-aNWzX1livC0u0ucPOzKe3iZNlRwI//qtpj03TyJq5I4=';

/** The `detail` of the `sandbox-boot` event the bootstrap dispatches on the frame's window. */
export interface SandboxBootDetail {
  hello: string;
  ports: MessagePort[];
}

/** What the page posts to the frame once it has loaded (with the port transferred). */
export interface SandboxBootMessage {
  hello: string;
  /** The frame's code, run as a script of the frame. */
  main: string;
}
