/**
 * `text.verbosity` for a local model: hosted models are trained on the setting; ours are
 * not, so it becomes one sentence of instructions, after the client's own. `medium` is
 * the model's default and adds nothing.
 */
export type Verbosity = 'low' | 'medium' | 'high';

const SENTENCE: Record<Verbosity, string | null> = {
  low: 'Keep your final answer short: as few words as the question allows, no preamble or recap.',
  medium: null,
  high: 'Give a thorough final answer: explain your reasoning, cover the relevant details and give examples where they help.',
};

/** The instructions the model is shown for `instructions` and `verbosity`. */
export function withVerbosity(instructions: string | null | undefined, verbosity: Verbosity | null | undefined): string | null | undefined {
  const sentence = SENTENCE[verbosity ?? 'medium'];
  if (!sentence) return instructions;
  return instructions ? `${instructions}\n\n${sentence}` : sentence;
}
