import { createInterface } from 'node:readline';
import type { Command } from '../command.js';
import { credentials } from '../session.js';

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; result?: { protocolVersion?: unknown } };

/** JSON-RPC's code for a failure of the server's own (here: the linkpix server did not answer the request). */
const SERVER_ERROR = -32000;

/** Where the messages go: the server's Streamable HTTP endpoint, with the key, in JSON (it never opens a stream). */
interface Remote {
  endpoint: URL;
  authorization: string;
  /** The protocol version the server chose at initialize, sent with every later request as the transport asks. */
  protocolVersion?: string;
}

/** One line of standard input, sent on; the answers back, each as one line of standard output. */
async function relay(line: string, remote: Remote, write: (message: unknown) => void): Promise<void> {
  let message: Message;
  try {
    message = JSON.parse(line) as Message;
  } catch {
    return write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  const isRequest = typeof message.method === 'string' && message.id !== undefined;
  const fail = (reason: string) =>
    isRequest &&
    write({ jsonrpc: '2.0', id: message.id, error: { code: SERVER_ERROR, message: `linkpix: ${reason}` } });
  let res: Response;
  try {
    res = await fetch(remote.endpoint, {
      method: 'POST',
      headers: {
        authorization: remote.authorization,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...(remote.protocolVersion ? { 'mcp-protocol-version': remote.protocolVersion } : {}),
      },
      body: line,
    });
  } catch (error) {
    return void fail(`the server could not be reached: ${(error as Error).message}`);
  }
  const body = await res.text();
  if (res.status === 401)
    return void fail(
      'the server refused the key (401 Unauthenticated): check LINKPIX_API_KEY, or run `linkpix login` again',
    );
  if (res.status === 202 || body.trim() === '') return;
  let answer: Message | Message[];
  try {
    answer = JSON.parse(body) as Message | Message[];
  } catch {
    return void fail(`the server answered ${res.status}: ${body.slice(0, 200)}`);
  }
  for (const one of [answer].flat()) {
    if (message.method === 'initialize' && typeof one.result?.protocolVersion === 'string')
      remote.protocolVersion = one.result.protocolVersion;
    write(one);
  }
}

/**
 * The MCP stdio transport (one JSON-RPC message a line) relayed to the server's POST /api/v1/mcp.
 * The tools are the server's own (docs/design/mcp.md): this process adds none and checks nothing,
 * so `linkpix mcp` is the server's MCP server, the key's role and scopes included. Standard output
 * carries the protocol only.
 */
export const mcp: Command = {
  synopsis: 'mcp',
  summary: 'An MCP server on standard input and output: the server’s tools (create_link, get_stats …) with your key',
  options: {},
  args: [],
  async run({ env, io }) {
    const { url, apiKey } = credentials(env);
    // As the SDK does: the API under the URL given, a path included.
    const endpoint = new URL(`${url.replace(/\/+$/, '')}/api/v1/mcp`);
    const remote: Remote = { endpoint, authorization: `Bearer ${apiKey}` };
    const write = (message: unknown) => void process.stdout.write(`${JSON.stringify(message)}\n`);
    const pending = new Set<Promise<void>>();
    for await (const line of createInterface({ input: io.input, crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      const sent = relay(line, remote, write).finally(() => pending.delete(sent));
      pending.add(sent);
    }
    await Promise.all(pending);
  },
};
