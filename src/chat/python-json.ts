/**
 * JSON written the way Python's `json.dumps(value, ensure_ascii=False)` writes it: `", "`
 * between items and `": "` after keys. Hugging Face chat templates serialize with the
 * `tojson` filter, which is exactly that call, so Qwen models were trained on — and write —
 * `{"name": "f", "arguments": {"a": 1}}`, not the compact form of `JSON.stringify`.
 *
 * Known differences, all irrelevant for values that came out of `JSON.parse`: integer-like
 * object keys come first (JS property order), and `1.0` prints as `1`.
 */
export function pythonJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => `${JSON.stringify(key)}: ${pythonJsonDumps(member)}`);
    return `{${members.join(', ')}}`;
  }
  // Strings escape identically in both languages; `undefined` in an array is `null`, as in JSON.stringify.
  return JSON.stringify(value) ?? 'null';
}
