import { expect, test } from 'vitest';
import { McpTokenStore } from './mcp-tokens';

test('tokens are set and cleared by server label, and listeners hear of it', () => {
  const store = new McpTokenStore();
  let heard = 0;
  store.subscribe(() => heard++);
  store.setToken('calc', 'a');
  store.setToken('other', 'b');
  store.setToken('calc', '');
  expect(store.tokens()).toEqual({ other: 'b' });
  expect(heard).toBe(3);
});
