/**
 * Reads the body of a Hermes-style `<tool_call>…</tool_call>` block (used by Hermes,
 * Qwen2.5 and Qwen3): `{"name": "get_weather", "arguments": {"location": "Paris"}}`.
 */

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
  const args = typeof call.arguments === 'string' ? parseJson(call.arguments) : call.arguments;
  if (!isJsonObject(args)) return null;
  return { name: call.name, arguments: JSON.stringify(args) };
}

/** `undefined` when the text is not JSON: for a model's output that is an answer, not an error. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
