import type { ModelEntry } from './api';

/** "Qwen3-0.6B-q4f16_1-MLC" → "Qwen3 0.6B". */
export function modelName(model: ModelEntry | string): string {
  if (typeof model !== 'string' && model.label) return model.label;
  const id = typeof model === 'string' ? model : model.id;
  return id.replace(/-(q4f16|q4f32|q0f16|q0f32)(_\d)?-MLC$/, '').replace(/-Instruct$/, ' Instruct').replace(/-/g, ' ');
}

/** What the picker lists: hidden (test) models only in test builds. */
export function visibleModels(models: readonly ModelEntry[], showHidden: boolean): ModelEntry[] {
  return models.filter((m) => showHidden || !m.hidden);
}
