/**
 * The items of calls the client runs — other than function calls, which the output builder
 * makes itself — from what the model wrote (`model-view/client-tools.ts` reads its
 * arguments into the item's fields), with their stream events in OpenAI's order:
 * `output_item.added` (in progress), the custom tool's input deltas, `output_item.done`.
 */
import type { ClientCallFields, ClientToolTarget } from '../model-view/client-tools';
import type { OutputItem } from '../../protocol/output-items';
import type { UnsequencedEvent } from '../../protocol/stream-events';
import { newId } from '../../shared/ids';

export function clientCallItem(
  target: ClientToolTarget,
  fields: Exclude<ClientCallFields, { kind: 'function' }>,
  index: number,
): { item: OutputItem; events: UnsequencedEvent[] } {
  const call_id = newId('call');
  const added = (item: OutputItem): UnsequencedEvent => ({ type: 'response.output_item.added', output_index: index, item });
  const done = (item: OutputItem): UnsequencedEvent => ({ type: 'response.output_item.done', output_index: index, item });
  switch (fields.kind) {
    case 'custom': {
      const namespace = target.kind === 'custom' && target.namespace ? { namespace: target.namespace } : {};
      const name = target.kind === 'custom' ? target.name : '';
      const item = { type: 'custom_tool_call' as const, id: newId('ctc'), call_id, name, input: fields.input, ...namespace, status: 'completed' as const };
      const at = { item_id: item.id, output_index: index };
      return {
        item,
        events: [
          added({ ...item, input: '', status: 'in_progress' }),
          { type: 'response.custom_tool_call_input.delta', ...at, delta: fields.input },
          { type: 'response.custom_tool_call_input.done', ...at, input: fields.input },
          done(item),
        ],
      };
    }
    case 'shell': {
      const item = { type: 'shell_call' as const, id: newId('sh'), call_id, action: fields.action, environment: { type: 'local' as const }, status: 'completed' as const };
      return { item, events: [added({ ...item, status: 'in_progress' }), done(item)] };
    }
    case 'local_shell': {
      const item = { type: 'local_shell_call' as const, id: newId('lsh'), call_id, action: fields.action, status: 'completed' as const };
      return { item, events: [added({ ...item, status: 'in_progress' }), done(item)] };
    }
    case 'computer': {
      const item = { type: 'computer_call' as const, id: newId('cu'), call_id, action: fields.action, pending_safety_checks: [], status: 'completed' as const };
      return { item, events: [added({ ...item, status: 'in_progress' }), done(item)] };
    }
    case 'apply_patch': {
      const item = { type: 'apply_patch_call' as const, id: newId('apc'), call_id, operation: fields.operation, status: 'completed' as const };
      return { item, events: [added({ ...item, status: 'in_progress' }), done(item)] };
    }
  }
}
