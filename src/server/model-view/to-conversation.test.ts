import { expect, test } from 'vitest';
import type { StoredItem } from '../../protocol/output-items';
import { toConversation } from './to-conversation';
import { ToolRegistry } from '../state/tool-registry';

const noTools = new ToolRegistry([]);

const DOT = 'data:image/png;base64,iVBORw0KGgo=';
const image = (image_url: string) => ({ type: 'input_image' as const, image_url, file_id: null, detail: 'auto' as const });

test('engines are handed data: URLs only: an image URL that reached here unresolved is left out, never passed on to be fetched', () => {
  const items: StoredItem[] = [
    { type: 'message', id: 'm', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Look' }, image(DOT), image('https://img.example/a.png'), image('http://127.0.0.1/x.png')] },
    { type: 'function_call', id: 'fc', call_id: 'c', name: 'snap', arguments: '{}', status: 'completed' },
    { type: 'function_call_output', id: 'fo', call_id: 'c', status: 'completed', output: [image('https://img.example/b.png'), image(DOT)] },
  ];
  const [message, , output] = toConversation(items, noTools);
  expect(message).toMatchObject({ type: 'message', text: 'Look', images: [DOT] });
  expect(output).toMatchObject({ type: 'function_call_output', images: [DOT] });
  expect(JSON.stringify(toConversation(items, noTools))).not.toMatch(/img\.example|127\.0\.0\.1/);
});
