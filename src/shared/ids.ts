/** Random ids with OpenAI-style prefixes (`resp_`, `msg_`, `fc_`, `call_`, `rs_`). */
export function newId(prefix: string): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return `${prefix}_${hex}`;
}
