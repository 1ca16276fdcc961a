/**
 * The builtin tools this package ships, one descriptor per folder of `tools/`, in the order
 * their entries are checked. The composition root passes them (and any tool an embedding
 * adds) to the server, which makes the one registry of them. Adding a tool: a folder with
 * an `index.ts` exporting its `BuiltinTool`, and one line here.
 */
import type { BuiltinTool } from '../ports/builtin-tool';
import type { ToolPorts } from '../ports/tool-ports';
import { fileSearchTool } from './file-search';
import { imageGenerationHistory } from './image-generation';
import { mcpTool } from './mcp';
import { programTool } from './program';
import { codeInterpreterTool } from './python';
import { webSearchTool } from './web';
import { toolSearchTool } from './tool-search';

export function builtinTools(ports: ToolPorts): BuiltinTool[] {
  return [codeInterpreterTool(ports.codeInterpreter), webSearchTool(ports.webSearch), mcpTool(ports.mcp), fileSearchTool(), toolSearchTool(), programTool(ports.programs), imageGenerationHistory()];
}
