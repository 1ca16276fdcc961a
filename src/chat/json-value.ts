/** Lenient JSON reading for model output, where "not JSON" means "an answer", not an error. */

/** The parsed value, or `undefined` when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An arguments value as a JSON object: given as an object, or as a JSON string holding one. */
export function argumentsObject(given: unknown): Record<string, unknown> | null {
  const args = typeof given === 'string' ? parseJson(given) : given;
  return isJsonObject(args) ? args : null;
}
