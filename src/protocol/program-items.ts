/**
 * Programmatic tool calling on the wire (openai 7.59): the `programmatic_tool_calling` tool,
 * the `program` item (the JavaScript the model wrote) and the `program_output` item (its
 * return value as JSON), as output and as input, and the `caller` a function call made by a
 * program carries. The program tool (tools/program/) brings these schemas to the request's
 * parse through its descriptor.
 */
import { z } from 'zod';

export const ProgrammaticToolCallingTool = z.strictObject({ type: z.literal('programmatic_tool_calling') });

/** The function the model calls to run a program (`{"code"}`); `tool_choice: {type: "programmatic_tool_calling"}` forces it. */
export const PROGRAM_FUNCTION = 'program';
export const ProgramToolChoice = z.strictObject({ type: z.literal('programmatic_tool_calling') });

/** `caller` of a function call (and its output): the model (`direct`), or the program item whose `call_id` is `caller_id`. */
export const CallerSchema = z.union([z.strictObject({ type: z.literal('direct') }), z.strictObject({ type: z.literal('program'), caller_id: z.string().min(1) })]);
export type Caller = z.infer<typeof CallerSchema>;

/** Which callers may use a tool; absent or null: the model only (`direct`). */
export const AllowedCallers = z.array(z.enum(['direct', 'programmatic'])).nullish();

/** Whether a tool's `allowed_callers` let `who` call it: absent or null means the model only. */
export function callableBy(callers: readonly string[] | null | undefined, who: 'direct' | 'programmatic'): boolean {
  return callers ? callers.includes(who) : who === 'direct';
}

export const ProgramItem = z.object({
  type: z.literal('program'),
  id: z.string(),
  call_id: z.string(),
  /** The body of an async JavaScript function. */
  code: z.string(),
  /** Opaque; round-tripped by clients (here: a digest of `call_id` and `code`). */
  fingerprint: z.string(),
});
export type ProgramItem = z.infer<typeof ProgramItem>;

export const ProgramOutputItem = z.object({
  type: z.literal('program_output'),
  id: z.string(),
  call_id: z.string(),
  /** The program's return value as JSON (completed), or why it stopped (incomplete). */
  result: z.string(),
  status: z.enum(['completed', 'incomplete']),
});
export type ProgramOutputItem = z.infer<typeof ProgramOutputItem>;

/** The items as a client sends them back (`ResponseInputItem.Program` / `.ProgramOutput`). */
export const ProgramInput = z.strictObject({
  type: z.literal('program'),
  id: z.string().min(1).nullish(),
  call_id: z.string().min(1),
  code: z.string().max(1_000_000),
  fingerprint: z.string().max(1000).nullish(),
});
export const ProgramOutputInput = z.strictObject({
  type: z.literal('program_output'),
  id: z.string().min(1).nullish(),
  call_id: z.string().min(1),
  result: z.string().max(10_485_760),
  status: z.enum(['completed', 'incomplete']),
});
