import { strToU8, zipSync } from 'fflate';
import { expect, test } from 'vitest';
import { zipBombCheck } from './docx-text';
import { fileKind } from './file-kind';
import { htmlToText } from './html-text';
import { sStem } from './minisearch-index';

test('what a file is: its extension first, then its bytes, then its declared type', () => {
  const none = new Uint8Array(0);
  expect(fileKind('a.PDF', '', none)).toBe('pdf');
  expect(fileKind('main.rs', 'application/octet-stream', none)).toBe('text');
  expect(fileKind('scan', '', strToU8('%PDF-1.7'))).toBe('pdf');
  expect(fileKind('page', 'text/html; charset=utf-8', none)).toBe('html');
  expect(fileKind('photo.png', 'image/png', none)).toBe('unsupported');
});

test('HTML becomes text: scripts and styles dropped, blocks on their own lines, references decoded, nothing kept as markup', () => {
  const html = '<html><head><title>t</title><style>p{}</style></head><body><script>alert(1)</script><h1>Title</h1><p>One &amp; two &#x263A; &lt;b&gt;</p><!-- hidden --><img src="x" onerror="y">end</body></html>';
  expect(htmlToText(html)).toBe('Title\n\nOne & two ☺ <b>\nend');
});

test('a zip bomb is caught by its declared sizes, and by its real ones when the directory lies', () => {
  const big = strToU8('a'.repeat(2_000_000));
  const bomb = zipSync({ 'word/document.xml': big }, { level: 9 });
  expect(zipBombCheck(bomb, 1_000_000)).toMatch(/zip bomb/);
  // The same archive with its central directory's uncompressed size rewritten to 100 bytes.
  const lying = bomb.slice();
  const view = new DataView(lying.buffer);
  for (let at = lying.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) {
      view.setUint32(at + 24, 100, true);
      break;
    }
  }
  expect(zipBombCheck(lying, 1_000_000)).toMatch(/zip bomb|not a valid/);
  expect(zipBombCheck(zipSync({ 'word/document.xml': strToU8('<w:document/>') }), 1_000_000)).toBeNull();
  expect(zipBombCheck(strToU8('not a zip'), 1_000_000)).toMatch(/not a valid .docx/);
});

test('plural endings fold, other words stay', () => {
  expect(['giraffes', 'berries', 'boxes', 'glass', 'octopus', 'is'].map(sStem)).toEqual(['giraffe', 'berry', 'boxe', 'glass', 'octopus', 'is']);
});
