import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { cutToBudget, findLines, readableText } from './readable-text';

const paris = readFileSync(new URL('../../../test/fixtures/web/paris.html', import.meta.url), 'utf8');

describe('readableText', () => {
  const page = readableText(paris, 'http://fixture.test/wiki/Paris');

  test('keeps the article, one block per line, with headings and list items marked', () => {
    expect(page.title).toMatch(/Paris/);
    const lines = page.text.split('\n');
    expect(lines).toContain('## Etymology');
    expect(lines).toContain("- The Eiffel Tower, built for the 1889 World's Fair");
    expect(lines.find((l) => l.startsWith('Paris is the capital'))).toBe(
      'Paris is the capital and largest city of France. With an estimated population of 2,102,650 residents in January 2023 in an area of more than 105 km², Paris is the fourth-most populous city in the European Union.',
    );
    expect(lines).toContain('15th | 233,392');
    expect(lines).toContain('  indented line two');
  });

  test('drops scripts, styles, navigation and ads', () => {
    expect(page.text).not.toMatch(/tracking|nor this|font-family|Buy cheap flights|Log in|Random page/);
  });

  test('a page too small for Readability is read whole (no scripts)', () => {
    const small = readableText('<title>Tiny</title><p>Just one line.</p><script>x()</script>', 'http://fixture.test/t');
    expect(small).toEqual({ title: 'Tiny', text: 'Just one line.' });
  });

  test('plain text without any markup', () => {
    expect(readableText('hello world', 'http://fixture.test/').text).toBe('hello world');
  });
});

describe('cutToBudget', () => {
  test('leaves short text alone', () => {
    expect(cutToBudget('short', 100)).toBe('short');
  });

  test('cuts at a line boundary and says the page goes on', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i} ${'x'.repeat(30)}`).join('\n');
    const cut = cutToBudget(text, 400);
    const [body, note] = cut.split('\n\n');
    expect(body!.length).toBeLessThanOrEqual(400);
    expect(text.startsWith(body!)).toBe(true);
    expect(body!.endsWith('x')).toBe(true); // whole lines only
    expect(note).toMatch(/^\[The page goes on: this is the first \d+% of its text\. Use find_in_page/);
  });

  test('a single long line is cut at a word boundary', () => {
    const cut = cutToBudget('word '.repeat(200), 103);
    expect(cut.split('\n\n')[0]).toBe('word '.repeat(20).trim());
  });
});

describe('findLines', () => {
  const { text } = readableText(paris, 'http://fixture.test/wiki/Paris');

  test('case-insensitive, with the section heading as context', () => {
    expect(findLines(text, 'LOUVRE')).toEqual(["## Landmarks\n- The Louvre, the world's most-visited art museum"]);
  });

  test('long lines are trimmed around the match', () => {
    const [hit] = findLines(text, 'population of', 10, 60);
    expect(hit!.length).toBeLessThanOrEqual(62);
    expect(hit).toContain('population of');
    expect(hit!.startsWith('…')).toBe(true);
  });

  test('several matches, limited; none for an absent or empty pattern', () => {
    expect(findLines(text, 'paris').length).toBeGreaterThan(2);
    expect(findLines(text, 'paris', 2)).toHaveLength(2);
    expect(findLines(text, 'Tokyo')).toEqual([]);
    expect(findLines(text, '  ')).toEqual([]);
  });
});
