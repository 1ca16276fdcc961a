/**
 * Tool search (`tool_search`): deferred tools (`defer_loading: true`) loaded on demand, run
 * here or by the client. The descriptor; the ranking is imported at the first search.
 */
export { toolSearchTool } from './tool-search-tool';
