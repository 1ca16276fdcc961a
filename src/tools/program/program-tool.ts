/**
 * The `programmatic_tool_calling` tool as a plug-in (`ports/builtin-tool.ts`): the model calls
 * `program` with `{"code"}`, a JavaScript program that calls the request's tools whose
 * `allowed_callers` include `"programmatic"`; it runs in a sandbox of its own (QuickJS in a
 * worker, program-worker-main.ts) and its return value is the `program_output`. How one
 * response runs programs: program-session.ts.
 */
import type { BuiltinTool } from '../../ports/builtin-tool';
import type { ProgramsPort } from '../../ports/tool-ports';
import { ProgramInput, ProgramOutputInput, type ProgramItem, type ProgramOutputItem } from '../../protocol/program-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { checkProgramAnswers, programSession } from './program-session';
import { PROGRAM_FUNCTION } from './program-targets';
import { programAsConversation, programFingerprint } from './program-view';
import { WaitingPrograms, type WaitingProgramsOptions } from './waiting-programs';

const isProgram = (item: { type: string }): item is ProgramItem => item.type === 'program';

/** `port`: the sandboxes (absent: the tool is a 400); `waiting`: how long and how many programs may wait for a client. */
export function programTool(port: ProgramsPort | undefined, waiting: WaitingProgramsOptions = {}): BuiltinTool {
  const programs = new WaitingPrograms(waiting);
  return {
    name: 'the programmatic_tool_calling tool',
    toolTypes: ['programmatic_tool_calling'],
    itemTypes: ['program', 'program_output'],
    // The tool entry is in the protocol's `Tool` union; the items as input come with the tool.
    schemas: { items: [ProgramInput, ProgramOutputInput] },
    functionNames: () => [PROGRAM_FUNCTION],
    check(entries) {
      if (!port)
        throw invalidRequest(
          'The programmatic_tool_calling tool is not available in this runtime: programs are off (startLocalRuntime({ tools: { programs: {} } }) turns them on; the stored runtime options may turn them off).',
          `tools[${entries[0]!.index}].type`,
          Codes.unsupportedTool,
        );
    },
    checkTurn: (_entries, turn) => checkProgramAnswers(turn),
    accept(input) {
      if (isProgram(input)) {
        const item = ProgramInput.parse(input);
        return { type: 'program', id: item.id ?? newId('prog'), call_id: item.call_id, code: item.code, fingerprint: item.fingerprint ?? programFingerprint(item.call_id, item.code) };
      }
      const item = ProgramOutputInput.parse(input);
      return { type: 'program_output', id: item.id ?? newId('pout'), call_id: item.call_id, result: item.result, status: item.status };
    },
    view(item, items) {
      // The program and its output are shown together, where the program stands; an unfinished program not yet.
      if (item.type !== 'program') return [];
      const output = items.find((i): i is ProgramOutputItem => i.type === 'program_output' && i.call_id === item.call_id);
      return output ? programAsConversation(item, output) : [];
    },
    session(_entries, turn, host) {
      if (!port) throw new Error('unreachable: check() refused the tool without a port');
      return programSession(port, programs, turn, host);
    },
  };
}
