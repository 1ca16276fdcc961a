/**
 * Type test (Vitest typecheck, unit project): tool search's wire shapes (src/protocol/tool-search.ts)
 * against the `openai` package's own — what we send is the SDK's item, what the SDK sends we accept.
 */
import { expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type { ResponseInputItem, ResponseToolSearchCall, ResponseToolSearchOutputItemParam, ToolSearchTool as SdkToolSearchTool } from 'openai/resources/responses/responses';
import type { ToolSearchCall, ToolSearchCallInput, ToolSearchOutput, ToolSearchOutputInput, ToolSearchTool } from '../../src/protocol/tool-search';

test('our tool_search_call is the SDK item', () => {
  expectTypeOf<ToolSearchCall>().toExtend<ResponseToolSearchCall>();
});

test('our tool_search_output, as sent back, is the SDK input item', () => {
  expectTypeOf<Omit<ToolSearchOutput, 'tools'>>().toExtend<Omit<ResponseToolSearchOutputItemParam, 'tools'>>();
});

test('what the SDK types as a tool_search entry and tool search input items, our schemas take', () => {
  // `parameters` is `unknown` to the SDK; ours must be a JSON Schema object (checked when parsed).
  expectTypeOf<Omit<SdkToolSearchTool, 'parameters'>>().toExtend<Omit<z.input<typeof ToolSearchTool>, 'parameters'>>();
  expectTypeOf<ResponseInputItem.ToolSearchCall>().toExtend<z.input<typeof ToolSearchCallInput>>();
  expectTypeOf<Omit<ResponseToolSearchOutputItemParam, 'tools'>>().toExtend<Omit<z.input<typeof ToolSearchOutputInput>, 'tools'>>();
});
