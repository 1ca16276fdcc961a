/**
 * The AI SDK's OpenAI tools in the page (`openai.tools.shell`, `.localShell`, `.applyPatch`,
 * `.customTool`), on `test-scripted`: the scripted model calls each as the function it is
 * shown; the provider reads OpenAI's call items, the page runs them, and the outputs go back
 * (with `store: true`, earlier calls travel as `item_reference`s the server resolves).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, streamText } from 'ai';
import { baseURL, caught, MODEL, recordingFetch, script, toolCall, type RecordedRequest } from './scenario-kit';

function setup() {
  const requests: RecordedRequest[] = [];
  const openai = createOpenAI({ baseURL: baseURL(), apiKey: 'local', fetch: recordingFetch(requests) });
  return { openai, model: openai.responses(MODEL), requests };
}

const inputTypes = (r: RecordedRequest | undefined) => ((r?.body?.input as Array<{ type?: string; role?: string }> | undefined) ?? []).map((i) => i.type ?? i.role ?? '?');

export async function shell() {
  const { openai, model, requests } = setup();
  const ran: string[][] = [];
  const tools = {
    shell: openai.tools.shell({
      execute: async ({ action }) => {
        ran.push(action.commands);
        return { output: action.commands.map((c) => ({ stdout: `ok ${c}`, stderr: '', outcome: { type: 'exit' as const, exitCode: 0 } })) };
      },
    }),
  };
  const result = await generateText({ model, tools, maxRetries: 0, stopWhen: isStepCount(3), prompt: script([toolCall('shell', { commands: ['whoami'] }), 'Done.']) });
  return { text: result.text, ran, steps: result.steps.length, declared: requests[0]?.body?.tools, secondInput: inputTypes(requests[1]) };
}

export async function localShell() {
  const { openai, model, requests } = setup();
  const ran: string[][] = [];
  const tools = {
    local_shell: openai.tools.localShell({
      execute: async ({ action }) => {
        ran.push(action.command);
        return { output: `ran ${action.command.join(' ')}` };
      },
    }),
  };
  const result = await generateText({ model, tools, maxRetries: 0, stopWhen: isStepCount(3), prompt: script([toolCall('local_shell', { command: ['echo', 'hi'] }), 'Echoed.']) });
  return { text: result.text, ran, steps: result.steps.length, secondInput: inputTypes(requests[1]) };
}

export async function applyPatch() {
  const { openai, model, requests } = setup();
  const operations: unknown[] = [];
  const tools = {
    apply_patch: openai.tools.applyPatch({
      execute: async ({ operation }) => {
        operations.push(operation);
        return { status: 'completed' as const, output: `patched ${operation.path}` };
      },
    }),
  };
  const operation = { type: 'update_file', path: 'src/a.ts', diff: '@@\n-old\n+new' };
  const result = streamText({ model, tools, maxRetries: 0, stopWhen: isStepCount(3), prompt: script([toolCall('apply_patch', { operation }), 'Patched.']) });
  const parts: string[] = [];
  for await (const part of result.fullStream) if (['tool-call', 'tool-result', 'finish-step'].includes(part.type)) parts.push(part.type);
  return { text: await result.text, operations, parts, secondInput: inputTypes(requests[1]) };
}

export async function customTool() {
  const { openai, model, requests } = setup();
  const inputs: unknown[] = [];
  const tools = {
    run_sql: Object.assign(openai.tools.customTool({ description: 'Run one SQL query.', format: { type: 'text' } }), {
      execute: async (input: unknown) => (inputs.push(input), 'one row'),
    }),
  };
  const result = await generateText({ model, tools, maxRetries: 0, stopWhen: isStepCount(3), prompt: script([toolCall('run_sql', { input: 'SELECT 1' }), 'One row.']) });
  return { text: result.text, inputs, declared: requests[0]?.body?.tools, secondInput: inputTypes(requests[1]) };
}

/** A grammar the scripted model cannot honour: refused, never run unconstrained. */
export async function grammarRefused() {
  const { openai, model } = setup();
  const tools = { digits: openai.tools.customTool({ format: { type: 'grammar', syntax: 'regex', definition: '\\d+' } }) };
  return caught(() => generateText({ model, tools, maxRetries: 0, prompt: 'x' }));
}
