/**
 * The wire between the runtime and a program's sandbox worker (program-worker-main.ts), and
 * the steps a program goes through. The worker is treated as untrusted: every message it
 * posts is checked with these schemas before the runtime believes it.
 */
import { z } from 'zod';
import type { ProgramCallAnswer, ProgramStep as ProgramStepType, ProgramToolCall as ProgramToolCallType } from '../../ports/tool-ports';

export interface ProgramLimits {
  /** CPU time the program may use, summed over all its slices. */
  cpuMs: number;
  /** QuickJS heap limit. */
  memoryBytes: number;
  stackBytes: number;
  /** Tool calls one program may make. */
  maxCalls: number;
  /** Characters of JSON one call's arguments may take. */
  maxArgsChars: number;
  /** Characters of JSON the return value may take. */
  maxResultChars: number;
}

export const DEFAULT_PROGRAM_LIMITS: ProgramLimits = {
  cpuMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  maxCalls: 200,
  maxArgsChars: 100_000,
  maxResultChars: 20_000,
};

export const ProgramToolCall = z.strictObject({
  id: z.number().int().min(1),
  /** `tools.a.b(...)` → `["a", "b"]`. */
  path: z.array(z.string().max(200)).min(1).max(2),
  /** The arguments as JSON. */
  arguments: z.string().max(DEFAULT_PROGRAM_LIMITS.maxArgsChars),
});
export type ProgramToolCall = ProgramToolCallType;

/** Where a program stands after a slice: waiting for tool calls (new ones listed), or over. */
export const ProgramStep = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('calls'), calls: z.array(ProgramToolCall).max(DEFAULT_PROGRAM_LIMITS.maxCalls) }),
  /** `result`: the return value as JSON. */
  z.strictObject({ type: z.literal('done'), result: z.string().max(DEFAULT_PROGRAM_LIMITS.maxResultChars) }),
  z.strictObject({ type: z.literal('failed'), error: z.string().max(4000) }),
]);
export type ProgramStep = ProgramStepType;

export type CallAnswer = ProgramCallAnswer;

/** Runtime → worker. */
export type ToWorker =
  | { type: 'start'; code: string; paths: string[][]; limits: ProgramLimits }
  | { type: 'answer'; answers: CallAnswer[] };

/** Worker → runtime: each message answers the last `start` or `answer`. */
export const FromWorker = z.strictObject({ type: z.literal('step'), step: ProgramStep });
export type FromWorker = z.infer<typeof FromWorker>;
