/**
 * Reads one Llama 3.x JSON tool call, the form the Llama 3.1/3.2 chat template asks for
 * ("Respond in the format {"name": function name, "parameters": dictionary of argument name
 * and its value}"): `{"name": "get_weather", "parameters": {"location": "Paris"}}`.
 */
import type { ToolCallBody } from './hermes-tool-call';
import { argumentsObject, isJsonObject, parseJson } from './json-value';

const ALLOWED_KEYS = new Set(['name', 'parameters', 'arguments', 'type']);

/**
 * Returns the call, or `null` when `json` is not exactly such an object. Accepted variants,
 * all seen from Llama 3.x models: `"arguments"` instead of `"parameters"`; arguments given as
 * a JSON string holding an object; an extra `"type": "function"` (copied from the tool
 * definitions the template shows). Any other key means the object is an answer, not a call.
 */
export function parseLlamaToolCall(json: string): ToolCallBody | null {
  const call = parseJson(json);
  if (!isJsonObject(call) || typeof call.name !== 'string') return null;
  if (Object.keys(call).some((key) => !ALLOWED_KEYS.has(key))) return null;
  if ('type' in call && call.type !== 'function') return null;
  if ('parameters' in call === 'arguments' in call) return null;
  const given = 'parameters' in call ? call.parameters : call.arguments;
  const args = argumentsObject(given);
  if (!args) return null;
  return { name: call.name, arguments: JSON.stringify(args) };
}
