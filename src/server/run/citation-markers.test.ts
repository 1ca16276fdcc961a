import { expect, test } from 'vitest';
import { CitationMarkers, type MarkedSegment } from './citation-markers';

const files = [
  { file_id: 'file_a', filename: 'a.txt' },
  { file_id: 'file_b', filename: 'b.pdf' },
];
const markers = () => new CitationMarkers((n) => files[n - 1]);

/** Runs `text` through the filter in pieces of `size` characters; returns the cleaned text and citations at their offsets. */
function run(text: string, size: number): { text: string; cites: Array<[number, string]> } {
  const filter = markers();
  let out = '';
  const cites: Array<[number, string]> = [];
  const take = (segments: MarkedSegment[]) => {
    for (const s of segments) {
      if ('text' in s) out += s.text;
      else cites.push([out.length, s.cite.file_id]);
    }
  };
  for (let i = 0; i < text.length; i += size) take(filter.push(text.slice(i, i + size)));
  take(filter.end());
  return { text: out, cites };
}

test('markers leave the text (with the spaces before them) and cite where they stood, however the text is split', () => {
  for (const size of [1, 2, 3, 5, 100]) {
    expect(run('The sky is blue [1]. Grass is green [2][1]; both [1, 2].', size)).toEqual({
      text: 'The sky is blue. Grass is green; both.',
      cites: [
        [15, 'file_a'],
        [31, 'file_b'],
        [31, 'file_a'],
        [37, 'file_a'],
        [37, 'file_b'],
      ],
    });
  }
});

test('brackets that are not markers of a known source stay as written', () => {
  for (const size of [1, 4, 100]) {
    expect(run('Arrays like a[0] and [3] and [x] and [1 stay. Also 【2】 counts.', size)).toEqual({
      text: 'Arrays like a[0] and [3] and [x] and [1 stay. Also counts.',
      cites: [[50, 'file_b']],
    });
  }
});

test('trailing spaces are held only until it is clear no marker follows', () => {
  const filter = markers();
  expect(filter.push('Hello ')).toEqual([{ text: 'Hello' }]);
  expect(filter.push('world')).toEqual([{ text: ' world' }]);
  expect(filter.push(' [')).toEqual([]);
  expect(filter.end()).toEqual([{ text: ' [' }]);
});
