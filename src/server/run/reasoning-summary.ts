/**
 * `reasoning.summary` for a local model. Hosted models write a separate summary of their
 * hidden reasoning; a local model's reasoning is not hidden, and it is the best account of
 * its thinking it can give — so the summary is the reasoning text itself, streamed as it is
 * written (leading whitespace dropped). `concise` stops after CONCISE_SUMMARY_CHARS
 * characters and ends with "…"; `auto` and `detailed` keep all of it.
 */
import type { ReasoningSummary } from '../../protocol/create-request';

export const CONCISE_SUMMARY_CHARS = 600;

export class SummaryText {
  private text = '';
  private cut = false;

  constructor(private readonly mode: ReasoningSummary) {}

  /** Takes the next piece of reasoning; returns what the summary gains ('' for nothing). */
  push(reasoning: string): string {
    if (this.cut) return '';
    let added = this.text === '' ? reasoning.trimStart() : reasoning;
    if (this.mode === 'concise' && this.text.length + added.length > CONCISE_SUMMARY_CHARS) {
      added = `${added.slice(0, CONCISE_SUMMARY_CHARS - this.text.length)}…`;
      this.cut = true;
    }
    this.text += added;
    return added;
  }

  get value(): string {
    return this.text;
  }
}
