/**
 * Which token logprobs belong to output text. The engine reports logprobs per token of the
 * raw output; the parser turns that into text, reasoning and tool calls. A token counts for
 * the output text that its first text character lands in, so its logprob is reported once,
 * on the delta that carries that character; a token wholly inside `<think>…</think>` or an
 * accepted tool call (tags included) is not output text and is reported nowhere.
 *
 * This leans on the parser invariant (chat/stream-parser.ts): text events, in order, are the
 * raw characters outside `reasoningSpans()` and `toolCallSpans()`, and text is released only
 * once every span before it is known.
 */
import type { SampledLogprob } from '../../ports/engine';
import type { Logprob } from '../../protocol/output-items';

type Span = [number, number];

interface Token {
  start: number;
  end: number;
  logprob: Logprob;
}

export class TextLogprobs {
  private readonly tokens: Token[] = [];
  /** Raw length recorded so far. */
  private recorded = 0;
  /** The next raw character a text event starts at. */
  private cursor = 0;
  /** Index of the first token not yet handed out or passed over. */
  private next = 0;

  /**
   * Records one engine delta (its raw text length and its tokens' logprobs). Token spans
   * follow the tokens' own lengths; should they not add up to the delta's text (an engine
   * that holds back part of a character), the last token is stretched or cut to fit.
   */
  record(textLength: number, logprobs: readonly SampledLogprob[] | undefined): void {
    const start = this.recorded;
    const end = start + textLength;
    let at = start;
    (logprobs ?? []).forEach((logprob, i, all) => {
      const tokenEnd = i === all.length - 1 ? end : Math.min(end, at + logprob.token.length);
      this.tokens.push({ start: at, end: tokenEnd, logprob: structuredClone(logprob) });
      at = tokenEnd;
    });
    this.recorded = end;
  }

  /**
   * The logprobs of the next `textLength` characters of output text, given the raw spans
   * that are not text (reasoning and tool-call blocks, in any order).
   */
  take(textLength: number, notText: readonly Span[]): Logprob[] {
    const spans = [...notText].sort((a, b) => a[0] - b[0]);
    const out: Logprob[] = [];
    let remaining = textLength;
    while (remaining > 0) {
      const inside = spans.find(([s, e]) => s <= this.cursor && this.cursor < e);
      if (inside) {
        this.cursor = inside[1];
        continue;
      }
      const nextSpan = spans.find(([s]) => s > this.cursor)?.[0] ?? Infinity;
      const length = Math.min(remaining, nextSpan - this.cursor);
      this.collect(this.cursor, this.cursor + length, out);
      this.cursor += length;
      remaining -= length;
    }
    return out;
  }

  /** Hands out the tokens that overlap `[from, to)` and were not handed out yet. */
  private collect(from: number, to: number, out: Logprob[]): void {
    while (this.next < this.tokens.length && this.tokens[this.next]!.end <= from) this.next++;
    while (this.next < this.tokens.length && this.tokens[this.next]!.start < to) out.push(this.tokens[this.next++]!.logprob);
  }
}
