/**
 * Reads the body of a Hermes-style `<tool_call>…</tool_call>` block (used by Hermes,
 * Qwen2.5 and Qwen3): `{"name": "get_weather", "arguments": {"location": "Paris"}}`.
 */
import { argumentsObject, isJsonObject, parseJson } from './json-value';

export interface ToolCallBody {
  name: string;
  /** The arguments object, re-serialized with `JSON.stringify`. */
  arguments: string;
}

/**
 * Returns the call, or `null` when the body is not `{"name": string, "arguments": object}`.
 * `arguments` may also be a JSON string holding an object (some fine-tunes double-encode it,
 * as OpenAI's wire format does). Whitespace around the JSON does not matter.
 */
export function parseHermesToolCall(body: string): ToolCallBody | null {
  const call = parseJson(body);
  if (!isJsonObject(call) || typeof call.name !== 'string') return null;
  const args = argumentsObject(call.arguments);
  if (!args) return null;
  return { name: call.name, arguments: JSON.stringify(args) };
}
