/**
 * What the model sees of a program: the `program` call it made and the output it was shown
 * (its return value as JSON, or why it stopped) — in its round, in later turns and in
 * compaction alike. The calls inside a program are not the model's and are not shown.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { ProgramItem, ProgramOutputItem } from '../../protocol/program-items';
import { PROGRAM_FUNCTION } from './program-targets';

export function programAsConversation(program: ProgramItem, output: ProgramOutputItem): ConversationItem[] {
  return [
    { type: 'function_call', call_id: program.call_id, name: PROGRAM_FUNCTION, arguments: JSON.stringify({ code: program.code }) },
    { type: 'function_call_output', call_id: program.call_id, output: output.status === 'completed' ? output.result : `The program stopped: ${output.result}` },
  ];
}

/** The item's `fingerprint`: opaque to clients, a digest of the program (FNV-1a, 64 bits). */
export function programFingerprint(callId: string, code: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const unit of `${callId}\n${code}`) {
    hash ^= BigInt(unit.codePointAt(0)!);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `fp_${hash.toString(16).padStart(16, '0')}`;
}
