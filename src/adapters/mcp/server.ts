import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiCall, ApiCaller } from './api-caller.ts';
import { missingArgument, toolResult } from './answers.ts';
import { TOOLS, type Tool } from './tools.ts';

const INFO = { name: 'linkpix', version: '1' };

const listed: ListToolsResult = {
  tools: TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
};

/** The call of a tool's route: its path parameters taken from the arguments, the rest as query (GET) or body. */
function callOf(tool: Tool, args: Record<string, unknown>): ApiCall | { missing: string } {
  const rest = { ...args };
  let missing: string | undefined;
  const path = tool.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null || value === '') missing ??= name;
    return encodeURIComponent(String(value));
  });
  if (missing !== undefined) return { missing };
  const get = tool.method === 'GET';
  return { method: tool.method, path, query: get ? rest : {}, body: get ? undefined : rest };
}

async function callTool(api: ApiCaller, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return { content: [{ type: 'text', text: `No tool named ${name}.` }], isError: true };
  const call = callOf(tool, args);
  if ('missing' in call) return missingArgument(call.missing);
  return toolResult(await api(call));
}

/**
 * An MCP server whose tools call the API through `api`. The tools are listed with their JSON
 * Schemas as they are (the API's own TypeBox validators), so the low-level handlers are used
 * rather than McpServer's Zod-typed registerTool; the route validates every call.
 */
export function createMcpServer(api: ApiCaller): McpServer {
  const mcp = new McpServer(INFO, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => listed);
  mcp.server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(api, request.params.name, request.params.arguments ?? {}),
  );
  return mcp;
}
