/**
 * An MCP tool result as text for the model and the `mcp_call.output`. Tool results are
 * untrusted: they are only ever text here (images and binary resources are named, not
 * carried), and bounded so a server cannot flood the prompt or storage.
 */
export function toolOutputText(content: unknown, structured: unknown, maxChars: number): string {
  const parts: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (typeof part !== 'object' || part === null) continue;
    const p = part as { type?: unknown; text?: unknown; mimeType?: unknown; resource?: { uri?: unknown; text?: unknown }; uri?: unknown };
    if (p.type === 'text' && typeof p.text === 'string') parts.push(p.text);
    else if (p.type === 'image' || p.type === 'audio') parts.push(`[${p.type} (${String(p.mimeType ?? 'unknown type')}) not shown]`);
    else if (p.type === 'resource' && p.resource) parts.push(typeof p.resource.text === 'string' ? p.resource.text : `[resource ${String(p.resource.uri ?? '')}]`);
    else if (p.type === 'resource_link') parts.push(`[resource link ${String(p.uri ?? '')}]`);
  }
  if (parts.length === 0 && structured !== undefined && structured !== null) parts.push(JSON.stringify(structured));
  const text = parts.join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n[… output cut at ${maxChars} characters]` : text;
}
