import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { StoredItem } from '../../protocol/output-items';
import type { ServedModel } from '../state/server-state';

/**
 * A request whose conversation ends with an assistant message, for a model whose engine answers
 * only after the user (`Engine.answersOnlyAfterUser`, web-llm): a 400 naming what to send,
 * before anything starts — the engine would refuse it mid-run.
 */
export function checkMessageOrder(model: ServedModel, window: readonly StoredItem[], inputCount: number): void {
  if (!model.engine.answersOnlyAfterUser) return;
  const last = window.at(-1);
  if (last?.type !== 'message' || last.role !== 'assistant') return;
  throw invalidRequest(
    `The model '${model.info.id}' answers only after a user message, and this conversation ends with an assistant message: add a user message at the end of 'input'.`,
    inputCount > 0 ? `input[${inputCount - 1}]` : 'input',
    Codes.invalidValue,
  );
}
