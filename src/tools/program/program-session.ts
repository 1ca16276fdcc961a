/**
 * Programmatic tool calling in one response: the `program` function the model calls, the
 * program run in its sandbox, each tool call it makes answered — a builtin tool's in place,
 * a client function's by the client in a later request — and its `program_output`.
 *
 * A client function a program calls is a `function_call` item with
 * `caller: {type: "program", caller_id}`: the response ends with it, as with a call the model
 * made, and the program waits (waiting-programs.ts) until the `function_call_output` comes
 * back; `prepare` of that later response resumes it. The model is shown the program and its
 * result, never the calls inside it (to-conversation.ts hides a program's calls).
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { CallContext, ItemWriter, ToolCall, ToolHost, ToolSession, TurnItems } from '../../ports/builtin-tool';
import type { ProgramCallAnswer, ProgramSandbox, ProgramsPort, ProgramStep } from '../../ports/tool-ports';
import type { FunctionCall } from '../../protocol/output-items';
import type { ProgramItem, ProgramOutputItem } from '../../protocol/program-items';
import { newId } from '../../shared/ids';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { PROGRAM_FUNCTION, programSpec, programTargets } from './program-targets';
import type { WaitingProgram, WaitingPrograms } from './waiting-programs';
import { programAsConversation, programFingerprint } from './program-view';


export function programSession(port: ProgramsPort, waiting: WaitingPrograms, turn: TurnItems, host: ToolHost): ToolSession {
  // Read at each use: the other tools' functions are known once every session is open (and an MCP server's once listed).
  const targets = () => programTargets(host.peers);

  /**
   * Runs the program on — from `first`, its start or the client's answers — until it ends or
   * waits for the client; what the model is shown (nothing while it waits). Stopping the
   * response closes the sandbox at once, whatever step is in flight.
   */
  async function drive(program: WaitingProgram, item: ProgramItem, first: () => Promise<ProgramStep>, context: CallContext): Promise<{ shown: ConversationItem[]; calls: number }> {
    const { sandbox } = program;
    const stop = () => sandbox.close();
    if (context.signal.aborted) stop();
    else context.signal.addEventListener('abort', stop, { once: true });
    let calls = 0;
    try {
      for (let step = await first(); ; ) {
        if (context.signal.aborted) throw context.signal.reason;
        if (step.type !== 'calls') {
          sandbox.close();
          const output: ProgramOutputItem = {
            type: 'program_output',
            id: newId('pout'),
            call_id: item.call_id,
            result: step.type === 'done' ? step.result : step.error,
            status: step.type === 'done' ? 'completed' : 'incomplete',
          };
          const index = context.items.begin(output);
          context.items.complete(index, output);
          return { shown: programAsConversation(item, output), calls };
        }
        const answers: ProgramCallAnswer[] = [];
        const known = targets();
        for (const call of step.calls) {
          const target = known.get(call.path.join('.'))?.target;
          if (!target) answers.push({ id: call.id, ok: false, error: `tools.${call.path.join('.')} is not a tool this program may call.` });
          else if (target.kind === 'builtin') {
            answers.push({ id: call.id, ...(await runBuiltin(target.name, call.arguments, context)) });
            calls++;
          } else program.waiting.set(clientCall(context.items, target, call.arguments, item.call_id), call.id);
        }
        if (answers.length) step = await sandbox.answer(answers);
        else if (program.waiting.size > 0) {
          // The client answers in its next request; the program keeps its state until then (or its idle limit).
          waiting.keep(item.call_id, program);
          return { shown: [], calls };
        } else step = await sandbox.answer([]);
      }
    } catch (err) {
      sandbox.close();
      throw err;
    } finally {
      context.signal.removeEventListener('abort', stop);
    }
  }

  /** A builtin tool's call from the program, run in place; its items are the program's business, not the response's. */
  async function runBuiltin(name: string, args: string, context: CallContext): Promise<{ ok: true; output: string } | { ok: false; error: string }> {
    const call = host.peers?.begin(name, args, { ...context, items: UNSEEN_ITEMS });
    if (!call) return { ok: false, error: `tools.${name} could not be called.` };
    const shown = await call.run();
    return { ok: true, output: outputText(shown) };
  }

  return {
    functions: () => [programSpec(targets())],

    begin(name: string, args: string, context: CallContext): ToolCall | null {
      if (name !== PROGRAM_FUNCTION) return null;
      const code = codeOf(args);
      const call_id = newId('call');
      const item: ProgramItem = { type: 'program', id: newId('prog'), call_id, code: code ?? args, fingerprint: programFingerprint(call_id, code ?? args) };
      const index = context.items.begin(item);
      context.items.complete(index, item);
      return {
        index,
        run: async () => {
          if (code === null)
            return (await drive({ sandbox: CLOSED, waiting: new Map() }, item, async () => ({ type: 'failed', error: 'The program call’s arguments must be a JSON object with a string `code`.' }), context)).shown;
          const sandbox = port.open();
          const program: WaitingProgram = { sandbox, waiting: new Map() };
          return (await drive(program, item, () => sandbox.start(code, [...targets().values()].map((t) => t.path)), context)).shown;
        },
      };
    },

    /** The client answered calls of waiting programs: each resumes, and ends or calls the client again. */
    async prepare(context: CallContext) {
      const conversation: ConversationItem[] = [];
      let calls = 0;
      for (const [programId, outputs] of answersByProgram(turn)) {
        const item = [...turn.history, ...turn.input].find((i): i is ProgramItem => i.type === 'program' && i.call_id === programId);
        if (!item) continue;
        const program = waiting.take(programId);
        if (!program) {
          const lost = await drive({ sandbox: CLOSED, waiting: new Map() }, item, async () => ({ type: 'failed', error: STATE_LOST }), context);
          conversation.push(...lost.shown);
          continue;
        }
        const answers = outputs.flatMap(({ call_id, output }): ProgramCallAnswer[] => {
          const id = program.waiting.get(call_id);
          program.waiting.delete(call_id);
          return id === undefined ? [] : [{ id, ok: true, output }];
        });
        const resumed = await drive(program, item, () => program.sandbox.answer(answers), context);
        conversation.push(...resumed.shown);
        calls += resumed.calls;
      }
      return { conversation, calls };
    },
  };
}

const STATE_LOST =
  'The program’s state was lost before the function outputs came back (it waited longer than the idle limit of 20 minutes, too many programs were waiting, or the runtime restarted). Run the program again.';

/** A `function_call` item for the client, made by the program `programId`; its `call_id`. */
function clientCall(items: ItemWriter, target: { name: string; namespace?: string }, args: string, programId: string): string {
  const item: FunctionCall = {
    type: 'function_call',
    id: newId('fc'),
    call_id: newId('call'),
    name: target.name,
    ...(target.namespace ? { namespace: target.namespace } : {}),
    arguments: '',
    caller: { type: 'program', caller_id: programId },
    status: 'in_progress',
  };
  const index = items.begin(item);
  items.emit({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: args });
  items.emit({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: index, name: target.name, arguments: args });
  items.complete(index, { ...item, arguments: args, status: 'completed' });
  return item.call_id;
}

/**
 * A program resumes once, with the outputs of all the calls it waits on: a turn that answers
 * some of a program's calls must answer the others too (400 naming the missing `call_id`s).
 */
export function checkProgramAnswers(turn: TurnItems): void {
  const items = [...turn.history, ...turn.input];
  const answered = new Set(items.flatMap((i) => (i.type === 'function_call_output' ? [i.call_id] : [])));
  const ended = new Set(items.flatMap((i) => (i.type === 'program_output' ? [i.call_id] : [])));
  const resumed = answersByProgram(turn);
  for (const [program] of resumed) {
    const missing = items.flatMap((i) => (i.type === 'function_call' && i.caller?.type === 'program' && i.caller.caller_id === program && !ended.has(program) && !answered.has(i.call_id) ? [i.call_id] : []));
    if (missing.length)
      throw invalidRequest(
        `The program '${program}' waits on more function calls than this request answers: send the function_call_output of ${missing.map((id) => `'${id}'`).join(', ')} with the others.`,
        'input',
        Codes.invalidValue,
      );
  }
}

/** The `function_call_output`s of this turn's input that answer calls programs made, by program. */
function answersByProgram(turn: TurnItems): Map<string, Array<{ call_id: string; output: string }>> {
  const callers = new Map<string, string>();
  for (const item of [...turn.history, ...turn.input]) if (item.type === 'function_call' && item.caller?.type === 'program') callers.set(item.call_id, item.caller.caller_id);
  const ended = new Set([...turn.history, ...turn.input].flatMap((i) => (i.type === 'program_output' ? [i.call_id] : [])));
  const grouped = new Map<string, Array<{ call_id: string; output: string }>>();
  for (const item of turn.input) {
    if (item.type !== 'function_call_output') continue;
    const program = callers.get(item.call_id);
    if (!program || ended.has(program)) continue;
    const output = typeof item.output === 'string' ? item.output : item.output.flatMap((p) => (p.type === 'input_text' ? [p.text] : [])).join('\n');
    grouped.set(program, [...(grouped.get(program) ?? []), { call_id: item.call_id, output }]);
  }
  return grouped;
}

function codeOf(args: string): string | null {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { code?: unknown }).code === 'string' ? (parsed as { code: string }).code : null;
  } catch {
    return null;
  }
}

/** What a builtin call showed the model, as the text a program gets. */
function outputText(shown: readonly ConversationItem[]): string {
  return shown.flatMap((i) => (i.type === 'function_call_output' ? [i.output] : [])).join('\n');
}

/** Where a program's builtin calls write their items: nowhere (the response shows the program, not its calls). */
const UNSEEN_ITEMS: ItemWriter = { begin: () => -1, update: () => {}, complete: () => {}, emit: () => {} };

/** A sandbox that is already over: for a program that cannot run (bad arguments, state lost). */
const CLOSED: ProgramSandbox = {
  start: () => Promise.resolve({ type: 'failed', error: 'The program was stopped.' }),
  answer: () => Promise.resolve({ type: 'failed', error: 'The program was stopped.' }),
  close: () => {},
};
