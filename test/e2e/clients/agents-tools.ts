/**
 * The Agents SDK's client-run tools in the page, on `test-scripted`: `shellTool` (local
 * environment), `applyPatchTool`, and functions grouped with `toolNamespace`. The model
 * (scripted) calls each as the function it is shown; the SDK gets OpenAI's call items, runs
 * them with the page's own shell and editor stand-ins, and sends the outputs back.
 */
import { Agent, applyPatchTool, OpenAIResponsesModel, run, setTracingDisabled, shellTool, tool, toolNamespace } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { baseURL, MODEL, recordingFetch, script, toolCall, type RecordedRequest } from './scenario-kit';

setTracingDisabled(true);

function model(requests: RecordedRequest[]) {
  const client = new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0, fetch: recordingFetch(requests) });
  return new OpenAIResponsesModel(client, MODEL);
}

const sent = (requests: RecordedRequest[]) =>
  requests.map((r) => ({
    tools: ((r.body?.tools as Array<{ type: string; name?: string; environment?: unknown }> | undefined) ?? []).map((t) => ({ type: t.type, name: t.name, environment: t.environment })),
    input: Array.isArray(r.body?.input) ? (r.body!.input as Array<{ type?: string }>).map((i) => i.type ?? 'message') : ['string'],
  }));

export async function shell() {
  const requests: RecordedRequest[] = [];
  const ran: string[][] = [];
  const agent = new Agent({
    name: 'Ops',
    model: model(requests),
    tools: [
      shellTool({
        shell: {
          async run(action) {
            ran.push(action.commands);
            return { output: action.commands.map((c) => ({ stdout: `ran: ${c}\n`, stderr: '', outcome: { type: 'exit' as const, exitCode: 0 } })) };
          },
        },
      }),
    ],
  });
  const result = await run(agent, script([toolCall('shell', { commands: ['ls', 'pwd'] }), 'Two commands ran.']));
  return { finalOutput: result.finalOutput, ran, items: result.newItems.map((i) => i.type), requests: sent(requests) };
}

export async function applyPatch() {
  const requests: RecordedRequest[] = [];
  const files = new Map<string, string>();
  const agent = new Agent({
    name: 'Editor',
    model: model(requests),
    tools: [
      applyPatchTool({
        editor: {
          async createFile(op) {
            files.set(op.path, op.diff.split('\n').map((l) => l.replace(/^\+/, '')).join('\n'));
            return { status: 'completed', output: `created ${op.path}` };
          },
          async updateFile(op) {
            return { status: 'failed', output: `cannot update ${op.path}` };
          },
          async deleteFile(op) {
            files.delete(op.path);
            return { status: 'completed' };
          },
        },
      }),
    ],
  });
  const operation = { type: 'create_file', path: 'notes/hello.md', diff: '+# Hello\n+world' };
  const result = await run(agent, script([toolCall('apply_patch', { operation }), 'The file is there.']));
  return { finalOutput: result.finalOutput, files: Object.fromEntries(files), items: result.newItems.map((i) => i.type), requests: sent(requests) };
}

export async function namespaced() {
  const requests: RecordedRequest[] = [];
  const looked: unknown[] = [];
  const crm = toolNamespace({
    name: 'crm',
    description: 'Customer records.',
    tools: [
      tool({ name: 'lookup', description: 'Find a customer by email', parameters: z.object({ email: z.string() }), execute: async ({ email }) => (looked.push(email), `customer ${email}: Alice`) }),
      tool({ name: 'note', description: 'Add a note', parameters: z.object({ text: z.string() }), execute: async () => 'noted' }),
    ],
  });
  const agent = new Agent({ name: 'CRM', model: model(requests), tools: [...crm] });
  const result = await run(agent, script([toolCall('crm__lookup', { email: 'a@b.c' }), 'It is Alice.']));
  const first = requests[0]?.body?.tools as Array<{ type: string; name: string; tools?: Array<{ name: string }> }> | undefined;
  return { finalOutput: result.finalOutput, looked, declared: first?.map((t) => ({ type: t.type, name: t.name, members: t.tools?.map((m) => m.name) })) };
}
