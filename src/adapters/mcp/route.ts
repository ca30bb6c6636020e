import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { errorEnvelope } from '../shared/errors/error-handler.ts';
import { injectCaller } from './api-caller.ts';
import { createMcpServer } from './server.ts';

const MCP_PATH = '/api/v1/mcp';

/** The request's headers as the Web standard's, for the SDK's transport. */
function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return headers;
}

/**
 * One JSON-RPC exchange, stateless: a server and a transport of its own for this request, whose
 * tools call the API with this request's key. JSON answers, no SSE stream and no session: every
 * POST stands alone, so any instance behind a balancer can take it.
 */
async function exchange(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const mcp = createMcpServer(injectCaller(request.server, request.headers.authorization ?? ''));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await mcp.connect(transport);
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    const answer = await transport.handleRequest(new Request(url, { method: 'POST', headers: webHeaders(request) }), {
      parsedBody: request.body,
    });
    reply.code(answer.status);
    answer.headers.forEach((value, name) => void reply.header(name, value));
    return await reply.send(await answer.text());
  } finally {
    await mcp.close();
  }
}

/** GET (an SSE stream) and DELETE (a session's end) have nothing to serve here: every exchange is one POST. */
async function notAllowed(_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return reply.code(405).header('allow', 'POST').send(errorEnvelope(405));
}

/**
 * POST /api/v1/mcp, the MCP server over Streamable HTTP (docs/api.md, MCP): registered in the API's
 * keyed scope, so a missing or bad key is the API's 401 and the request counts against the key's
 * limit; each tool is then checked by the route it calls. Hidden from the OpenAPI document: it is
 * JSON-RPC, not a REST resource.
 */
export function registerMcpRoute(api: FastifyInstance): void {
  const schema = { hide: true };
  api.post(MCP_PATH, { schema }, exchange);
  api.get(MCP_PATH, { schema }, notAllowed);
  api.delete(MCP_PATH, { schema }, notAllowed);
}
