import type { ToolSpec } from './chat-format';

/**
 * A tool in OpenAI's chat-completions shape, `{"type": "function", "function": {…}}`, which is
 * what Hugging Face chat templates receive as `tools` and print with `tojson`. Key order is
 * the one callers pass (name, description, parameters); absent fields are left out rather
 * than written as `null`.
 */
export function toolDefinition(tool: ToolSpec): { type: 'function'; function: Record<string, unknown> } {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description != null && { description: tool.description }),
      ...(tool.parameters != null && { parameters: tool.parameters }),
    },
  };
}
