import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Command } from '../command.js';
import { credentials } from '../session.js';

/** JSON-RPC's code for a failure of the server's own (here: the linkpix server could not answer). */
const SERVER_ERROR = -32000;

/** What the client is told when a request did not reach the server, or the server refused it whole. */
function reason(error: unknown): string {
  if ((error as { code?: unknown }).code === 401)
    return 'the server refused the key (401 Unauthenticated): check LINKPIX_API_KEY, or run `linkpix login` again';
  return error instanceof Error ? error.message : String(error);
}

/** A request's failure to reach the server, as that request's JSON-RPC error: the client waits for no answer in vain. */
function refusal(message: JSONRPCMessage, error: unknown): JSONRPCMessage | null {
  if (!isJSONRPCRequest(message)) return null;
  return { jsonrpc: '2.0', id: message.id, error: { code: SERVER_ERROR, message: `linkpix: ${reason(error)}` } };
}

/**
 * Every message of the local client sent to the server's MCP endpoint, every answer sent back,
 * until standard input ends. The tools are the server's own (docs/design/mcp.md): this process
 * adds none and checks nothing, so `linkpix mcp` is the server's MCP, the key's rights included.
 */
function relay(local: Transport, remote: Transport, input: NodeJS.ReadableStream): Promise<void> {
  local.onmessage = (message) => {
    remote.send(message).catch(async (error: unknown) => {
      const answer = refusal(message, error);
      if (answer) await local.send(answer);
    });
  };
  remote.onmessage = (message) => void local.send(message);
  return new Promise((resolve) => {
    input.once('end', () => {
      void Promise.all([remote.close(), local.close()]).then(() => resolve());
    });
  });
}

export const mcp: Command = {
  synopsis: 'mcp',
  summary: 'An MCP server on standard input and output: the server’s tools (create_link, get_stats …) with your key',
  options: {},
  args: [],
  async run({ env }) {
    const { url, apiKey } = credentials(env);
    const remote = new StreamableHTTPClientTransport(new URL('/api/v1/mcp', url), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    });
    // The protocol owns standard input and output: nothing else may be written to stdout.
    const local = new StdioServerTransport(process.stdin, process.stdout);
    const done = relay(local, remote, process.stdin);
    await remote.start();
    await local.start();
    await done;
  },
};
