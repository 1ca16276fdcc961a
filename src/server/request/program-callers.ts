/**
 * A function call a program made (`caller: {type: "program"}`) is answered to that program,
 * which only a request with the `programmatic_tool_calling` tool resumes: without it the
 * output would reach neither the program nor the model (which is never shown a program's
 * calls), so such a request is a 400 naming the output.
 */
import type { Tool } from '../../protocol/create-request';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

export function checkProgramCallers(tools: readonly Tool[], history: readonly StoredItem[], input: readonly StoredItem[]): void {
  if (tools.some((t) => t.type === 'programmatic_tool_calling')) return;
  const byProgram = new Set([...history, ...input].flatMap((i) => (i.type === 'function_call' && i.caller?.type === 'program' ? [i.call_id] : [])));
  input.forEach((item, i) => {
    if (item.type === 'function_call_output' && byProgram.has(item.call_id))
      throw invalidRequest(
        `input[${i}] answers a function call a program made (call_id ${item.call_id}): include the programmatic_tool_calling tool in 'tools' so the program can resume.`,
        `input[${i}].call_id`,
        Codes.invalidValue,
      );
  });
}
