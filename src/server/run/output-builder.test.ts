import { describe, expect, it } from 'vitest';
import type { CodeInterpreterCall } from '../../protocol/output-items';
import type { UnsequencedEvent } from '../../protocol/stream-events';
import { OutputBuilder } from './output-builder';

describe('OutputBuilder owns its items', () => {
  it('a builtin call changes only through begin/update/complete; the caller keeps its own copy', () => {
    const events: UnsequencedEvent[] = [];
    const builder = new OutputBuilder((e) => events.push(e));
    builder.accept({ type: 'text', text: 'Let me run it.' });
    const item: CodeInterpreterCall = { type: 'code_interpreter_call', id: 'ci_1', status: 'in_progress', code: '', container_id: 'cntr_1', outputs: null };
    const index = builder.beginBuiltinCall(item);
    expect(index).toBe(1);
    // The message before the call was closed when the call began.
    expect(builder.snapshot()[0]).toMatchObject({ type: 'message', status: 'completed' });

    item.code = 'print(1)';
    expect(builder.snapshot()[1]).toMatchObject({ code: '' });
    builder.updateBuiltinCall(index, item);
    expect(builder.snapshot()[1]).toMatchObject({ code: 'print(1)', status: 'in_progress' });

    item.status = 'completed';
    item.outputs = [{ type: 'logs', logs: '1\n' }];
    builder.completeBuiltinCall(index, item);
    item.outputs.push({ type: 'logs', logs: 'changed later' });
    expect(builder.itemsFrom(1)).toEqual([{ ...item, outputs: [{ type: 'logs', logs: '1\n' }] }]);
    expect(events.at(-1)).toEqual({ type: 'response.output_item.done', output_index: 1, item: { ...item, outputs: [{ type: 'logs', logs: '1\n' }] } });

    // Copies handed out do not write back either.
    const [copy] = builder.itemsFrom(1);
    if (copy?.type === 'code_interpreter_call') copy.status = 'failed';
    expect(builder.snapshot()[1]).toMatchObject({ status: 'completed' });
    expect(builder.itemCount).toBe(2);
  });

  it('refuses to update an index that holds another item', () => {
    const builder = new OutputBuilder(() => {});
    builder.accept({ type: 'text', text: 'Hi' });
    const item: CodeInterpreterCall = { type: 'code_interpreter_call', id: 'ci_1', status: 'in_progress', code: '', container_id: 'c', outputs: null };
    expect(() => builder.updateBuiltinCall(0, item)).toThrow(/not the builtin call ci_1/);
  });
});
