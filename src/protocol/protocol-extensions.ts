/**
 * What plug-in tools add to the wire that this folder does not name: their `tools` entries
 * and their items as input, each a strict object keyed by a literal `type`
 * (`BuiltinTool.schemas`). The request's parse takes them beside the SDK's own shapes.
 */
import type { ZodType } from 'zod';

export interface ProtocolExtensions {
  tools: readonly ZodType[];
  items: readonly ZodType[];
}

export const NO_EXTENSIONS: ProtocolExtensions = { tools: [], items: [] };
