/**
 * Source markers in a streamed answer: after a file search the model was shown its passages
 * numbered `[1]`, `[2]`, …, and a `[n]` it writes for a source of this response becomes a
 * `file_citation` to that source's file. The marker leaves the text (with the spaces just
 * before it), and the citation's `index` is where it stood in the cleaned text. `[1, 2]` and
 * `[1][2]` cite both; `【1】` (the form some models learned from OpenAI's) counts too. A
 * bracket that is not a marker for a known source stays text as written.
 *
 * Streaming: text that may still turn out to be a marker (a `[` and digits, or spaces that a
 * marker may follow) is held back until it is known; everything else passes at once.
 */

export interface CitedFile {
  file_id: string;
  filename: string;
}

export type MarkedSegment = { text: string } | { cite: CitedFile };

/** A marker complete at the start of the text (leading spaces included). */
const COMPLETE = /^[ \t]*(?:\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]|【(\d{1,3})(?:[:†][^】\n]{0,40})?】)/;
/** Text that is still the start of a possible marker. */
const PARTIAL = /^[ \t]*(?:\[[\d,\s]{0,24}|【[^】\n]{0,44})?$/;
/** Where a marker (or the spaces before one) may begin. */
const START = /[ \t]*[[【]|[ \t]+$/;

export class CitationMarkers {
  #held = '';

  /** `source(n)`: the file source n (1-based) of this response, if there is one. */
  constructor(private readonly source: (n: number) => CitedFile | undefined) {}

  push(text: string): MarkedSegment[] {
    this.#held += text;
    const out: MarkedSegment[] = [];
    while (this.#held) {
      const at = START.exec(this.#held);
      if (!at) {
        out.push({ text: this.#held });
        this.#held = '';
        break;
      }
      if (at.index > 0) out.push({ text: this.#held.slice(0, at.index) });
      this.#held = this.#held.slice(at.index);
      const marker = COMPLETE.exec(this.#held);
      if (marker) {
        const numbers = (marker[1] ?? marker[2] ?? '').split(',').map((n) => Number(n.trim()));
        const files = numbers.map((n) => this.source(n));
        if (files.every((f): f is CitedFile => f !== undefined)) for (const file of files) out.push({ cite: file });
        else out.push({ text: marker[0] });
        this.#held = this.#held.slice(marker[0].length);
        continue;
      }
      if (PARTIAL.test(this.#held) && this.#held.length < 64) break;
      // Not a marker after all: the spaces and the bracket are text; go on after them.
      const bracket = this.#held.search(/[[【]/);
      const cut = bracket === -1 ? this.#held.length : bracket + 1;
      out.push({ text: this.#held.slice(0, cut) });
      this.#held = this.#held.slice(cut);
    }
    return merge(out);
  }

  /** What is still held (the answer ended): plain text. */
  end(): MarkedSegment[] {
    const rest = this.#held;
    this.#held = '';
    return rest ? [{ text: rest }] : [];
  }
}

function merge(segments: MarkedSegment[]): MarkedSegment[] {
  const out: MarkedSegment[] = [];
  for (const segment of segments) {
    const last = out[out.length - 1];
    if ('text' in segment && last && 'text' in last) last.text += segment.text;
    else if (!('text' in segment) || segment.text) out.push(segment);
  }
  return out;
}
