/**
 * The run plan: built once from the validated request, and the only thing the turn loop
 * reads — a later round renders through the plan and sends the plan's parameters, it
 * derives nothing from the request again. The engine is the scripted one, recording what
 * each round gives it; Python is a fake at the ToolPorts boundary.
 */
import { RecordingEngine } from '../fakes/recording-engine';
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ConversationItem, Rendered } from '../../src/chat/chat-format';
import { qwenFormat } from '../../src/chat/qwen-format';
import { qwen3Format } from '../../src/chat/qwen3-format';
import { SCRIPTED_MODEL_ID } from '../../src/engine/scripted-engine';
import { CreateResponseRequest } from '../../src/protocol/create-request';
import { EngineQueue } from '../../src/server/state/engine-queue';
import { initialResponse } from '../../src/server/run/response-factory';
import { ResponseRun } from '../../src/server/run/response-run';
import { buildRunPlan, type RunPlan } from '../../src/server/request/run-plan';
import { openIdbStore } from '../../src/store/idb-store';
import { ToolRegistry } from '../../src/server/state/tool-registry';
import { builtinTools } from '../../src/tools/builtin-tools';
import type { CodeInterpreterPort } from '../../src/ports/tool-ports';

/** What a plan needs besides the request: the package's builtin tools (Python a fake at its port), a first turn. */
const withTools = (codeInterpreter?: CodeInterpreterPort) => ({ tools: new ToolRegistry(builtinTools(codeInterpreter ? { codeInterpreter } : {})), turn: { history: [], input: [] }, host: {} });

/** The scripted model, keeping every request it was given. */
const parse = (body: Record<string, unknown>) => CreateResponseRequest.parse({ model: SCRIPTED_MODEL_ID, ...body });
const userSays = (text: string): ConversationItem[] => [{ type: 'message', role: 'user', text }];

describe('buildRunPlan', () => {
  it('derives tools, builtin names, generation parameters and limits from the request once', () => {
    const request = parse({
      input: 'Hi',
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }, { type: 'code_interpreter', container: 'cntr_1' }],
      tool_choice: 'required',
      temperature: 0.3,
      top_p: 0.8,
      reasoning: { effort: 'none' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } },
      max_output_tokens: 64,
      max_tool_calls: 2,
      parallel_tool_calls: false,
      include: ['code_interpreter_call.outputs'],
      stream: true,
      store: false,
    });
    const plan = buildRunPlan({ request, format: qwen3Format, conversation: userSays('Hi'), maxToolRounds: 5, ...withTools() });
    expect(plan.tools.map((t) => t.name)).toEqual(['lookup', 'python']);
    expect([...plan.builtinNames]).toEqual(['python']);
    // reasoningEffort, parallelToolCalls and the schema's name are for engines that pass them on (an upstream).
    expect(plan.generation).toEqual({
      enableThinking: false,
      temperature: 0.3,
      topP: 0.8,
      toolChoice: 'required',
      jsonSchema: { type: 'object' },
      jsonSchemaName: 'answer',
      reasoningEffort: 'none',
      parallelToolCalls: false,
    });
    expect(plan).toMatchObject({ model: SCRIPTED_MODEL_ID, maxOutputTokens: 64, maxToolCalls: 2, maxToolRounds: 5, singleCall: true, persist: false, logEvents: true });
    expect([...plan.include]).toEqual(['code_interpreter_call.outputs']);
    // The first round's input is the conversation rendered with instructions, tools and thinking off.
    expect(plan.input).toEqual(qwen3Format.render({ instructions: 'Be brief.', items: userSays('Hi'), tools: [...plan.tools], enableThinking: false }));
    expect(plan.input.prompt.endsWith('<think>\n\n</think>\n\n')).toBe(true);
    // A parser reads calls of the described tools only.
    const parser = plan.createParser();
    const events = [...parser.push('<tool_call>{"name": "lookup", "arguments": {}}</tool_call><tool_call>{"name": "other", "arguments": {}}</tool_call>'), ...parser.end()];
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'text']);
  });

  it('tool_choice none describes no tools and enables no builtin; defaults leave the engine its own', () => {
    const plan = buildRunPlan({
      request: parse({ input: 'Hi', tools: [{ type: 'code_interpreter', container: { type: 'auto' } }], tool_choice: 'none' }),
      format: qwenFormat,
      conversation: userSays('Hi'),
      maxToolRounds: 5,
      ...withTools(),
    });
    expect(plan.tools).toEqual([]);
    expect(plan.builtinNames.size).toBe(0);
    expect(plan.generation).toEqual({});
    expect(plan).toMatchObject({ singleCall: false, persist: true, logEvents: false });
    expect(plan.maxOutputTokens).toBeUndefined();
  });
});

describe('ResponseRun follows its plan', () => {
  it('renders later rounds through the plan and sends the same parameters every round', async () => {
    const script = JSON.stringify({ script: ['<tool_call>{"name": "python", "arguments": {"code": "print(1)"}}</tool_call>', 'It is 1.'] });
    const request = parse({ input: script, tools: [{ type: 'code_interpreter', container: 'cntr_plan' }], temperature: 0.5 });
    const ran: Array<{ code: string; containerId: string }> = [];
    const python: CodeInterpreterPort = { run: async (code, { containerId }) => (ran.push({ code, containerId }), { logs: '1\n', images: [], error: null }) };
    const sources = withTools(python);
    const built = buildRunPlan({ request, format: qwenFormat, conversation: userSays(script), maxToolRounds: 5, ...sources });
    const rendered: Array<readonly ConversationItem[]> = [];
    const outputs: Rendered[] = [];
    // The plan's parameters differ from what the request says: a run that re-derived them would send 0.5.
    const plan: RunPlan = {
      ...built,
      generation: { ...built.generation, temperature: 0.25 },
      render(conversation) {
        rendered.push(conversation);
        const out = built.render(conversation);
        outputs.push(out);
        return out;
      },
    };
    const engine = new RecordingEngine();
    const store = await openIdbStore({ name: `run-plan-${Date.now()}-${Math.random()}` });
    const run = new ResponseRun(initialResponse('resp_plan', request, 'in_progress', 1), plan, {
      engine,
      place: new EngineQueue().reserve(),
      store,
      tools: sources.tools,
      now: () => 2,
      flushMs: 5,
    });
    const response = await run.done;

    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('It is 1.');
    expect(ran).toEqual([{ code: 'print(1)', containerId: 'cntr_plan' }]);
    expect(engine.requests).toHaveLength(2);
    // Round 1 gets the input rendered when the plan was built; round 2 what the plan's render gave.
    expect(engine.requests[0]!.input).toBe(built.input);
    expect(rendered).toHaveLength(1);
    expect(engine.requests[1]!.input).toBe(outputs[0]);
    expect(rendered[0]!.slice(-2).map((item) => item.type)).toEqual(['function_call', 'function_call_output']);
    for (const sent of engine.requests) expect(sent).toMatchObject({ model: SCRIPTED_MODEL_ID, temperature: 0.25 });
    expect(response.output.map((item) => item.type)).toEqual(['code_interpreter_call', 'message']);
    expect(response.output[0]).toMatchObject({ type: 'code_interpreter_call', status: 'completed', code: 'print(1)', container_id: 'cntr_plan' });
    store.close();
  });
});
