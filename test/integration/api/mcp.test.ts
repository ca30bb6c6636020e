// The MCP server at POST /api/v1/mcp (docs/api.md, MCP), driven by the MCP SDK's own client over
// Streamable HTTP against a real server on each engine: the handshake, the eight tools, a link
// made and read back, the key's role and scopes applied per tool by the tool's route, a 422 as a
// tool error naming the field, and the route's own answers (405, 401).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { addMember, makeKey, makeWorkspace } from './workspaces-support.ts';
import { redirectsTo } from '../redirect/redirect-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOOL_NAMES = [
  'check_destination',
  'create_link',
  'explain_visit',
  'get_link',
  'get_stats',
  'list_links',
  'record_conversion',
  'update_link',
];

/** An MCP client connected to the server with the key; closed by the caller. */
async function connect(h: Harness, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/api/v1/mcp', h.baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'linkpix-test', version: '1' });
  await client.connect(transport);
  return client;
}

async function withClient<T>(h: Harness, key: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(h, key);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  assert.ok(first?.type === 'text', JSON.stringify(result));
  return first.text;
};

onEachEngine(
  'MCP over Streamable HTTP',
  (h) => {
    test('initialize names the server; tools/list has the eight tools with their routes’ schemas', async () => {
      const { key } = await h().account();
      await withClient(h(), key, async (client) => {
        assert.equal(client.getServerVersion()?.name, 'linkpix');
        assert.ok(client.getServerCapabilities()?.tools);
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
        const create = tools.find((t) => t.name === 'create_link')!;
        assert.deepEqual(create.inputSchema.required, ['url']);
        assert.ok(create.inputSchema.properties?.alias, 'the link body’s fields');
        const stats = tools.find((t) => t.name === 'get_stats')!;
        assert.deepEqual(stats.inputSchema.required, ['id', 'name'], 'defaults are not required');
        for (const tool of tools) assert.ok(tool.description, tool.name);
      });
    });

    test('create_link then get_link, update_link, list_links, get_stats, explain_visit, check_destination', async () => {
      const { key } = await h().account();
      await withClient(h(), key, async (client) => {
        const made = await call(client, 'create_link', { url: 'https://example.com/mcp', alias: 'from-mcp' });
        assert.equal(made.isError, undefined, textOf(made));
        const link: Json = JSON.parse(textOf(made));
        assert.equal(link.url, 'https://example.com/mcp');
        assert.equal(link.short_url, `${h().config.APP_URL}/from-mcp`);

        const got = await call(client, 'get_link', { id: link.id });
        assert.equal(JSON.parse(textOf(got)).alias, 'from-mcp');

        const updated = await call(client, 'update_link', { id: link.id, title: 'Named by a model' });
        assert.equal(JSON.parse(textOf(updated)).title, 'Named by a model');

        const listed: Json = JSON.parse(textOf(await call(client, 'list_links', { search: 'from-mcp', by: 'alias' })));
        assert.deepEqual(
          listed.data.map((l: Json) => l.id),
          [link.id],
        );
        assert.equal(listed.meta.total, 1);

        const stats: Json = JSON.parse(textOf(await call(client, 'get_stats', { id: link.id, name: 'country' })));
        assert.deepEqual(stats.data, []);
        assert.ok(stats.meta, 'a page of statistics keeps its meta');

        const explained = await call(client, 'explain_visit', { id: link.id, country: 'FR' });
        assert.equal(explained.isError, undefined, textOf(explained));
        assert.match(textOf(explained), /https:\/\/example\.com\/mcp/);

        const missing = await call(client, 'get_link', {});
        assert.equal(missing.isError, true);
        assert.match(textOf(missing), /id: The id field is required/);
        const unknown = await call(client, 'get_link', { id: 2147480000 });
        assert.equal(unknown.isError, true);
        assert.match(textOf(unknown), /404: Resource not found/);
      });
    });

    test('check_destination checks at once; record_conversion records a visit’s sale once', async () => {
      const { key } = await h().account();
      await withClient(h(), key, async (client) => {
        const made = await call(client, 'create_link', { url: 'https://gone.example/shop', track_conversions: 1 });
        const link: Json = JSON.parse(textOf(made));
        const checked: Json = JSON.parse(textOf(await call(client, 'check_destination', { id: link.id })));
        assert.equal(checked.health.status, 'broken');
        assert.equal(checked.health.code, 404);

        const cid = new URL(await redirectsTo(h(), `/${link.alias}`)).searchParams.get('lpx_cid');
        assert.ok(cid);
        const sale = { click_id: cid, name: 'sale', value: 12.5, currency: 'eur' };
        const recorded: Json = JSON.parse(textOf(await call(client, 'record_conversion', sale)));
        assert.deepEqual(
          [recorded.link_id, recorded.name, recorded.value, recorded.currency],
          [link.id, 'sale', 12.5, 'EUR'],
        );
        const again: Json = JSON.parse(textOf(await call(client, 'record_conversion', { ...sale, value: 99 })));
        assert.equal(again.id, recorded.id, 'once per click and name');
      });
    });

    test('each tool is checked by its route: a viewer’s create_link is refused by role, a key without links:write by scope', async () => {
      const owner = await h().account();
      const workspace = await makeWorkspace(h(), owner, 'MCP team');
      const viewer = await h().account();
      await addMember(h(), owner, workspace.id, viewer, 'viewer');
      const viewerKey = await makeKey(h(), viewer, workspace.id);
      const readOnly = await makeKey(h(), owner, workspace.id, ['links:read']);
      const ownerKey = await makeKey(h(), owner, workspace.id);

      const id = await withClient(h(), ownerKey, async (client) => {
        const made = await call(client, 'create_link', { url: 'https://example.com/team' });
        return JSON.parse(textOf(made)).id as number;
      });
      await withClient(h(), viewerKey, async (client) => {
        const refused = await call(client, 'create_link', { url: 'https://example.com/viewer' });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /403: This needs the role editor or above in the workspace\./);
        const read = await call(client, 'get_link', { id });
        assert.equal(read.isError, undefined, textOf(read));
      });
      await withClient(h(), readOnly, async (client) => {
        assert.equal((await client.listTools()).tools.length, 8, 'listing needs no scope');
        const refused = await call(client, 'update_link', { id, title: 'Not mine to change' });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /403: This key lacks the scope links:write\./);
        const conversion = await call(client, 'record_conversion', { click_id: 'nope', name: 'sale' });
        assert.match(textOf(conversion), /lacks the scope conversions:write/);
        const read = await call(client, 'get_link', { id });
        assert.equal(JSON.parse(textOf(read)).id, id);
      });
      const unchanged = await h().request('GET', `/api/v1/links/${id}`, { key: ownerKey });
      assert.equal(unchanged.body.data.title, null);
    });

    test('a 422 is a tool error naming the field; nothing is written', async () => {
      const { key } = await h().account();
      await withClient(h(), key, async (client) => {
        const bad = await call(client, 'create_link', { url: 'javascript:alert(1)', alias: 'bad-one' });
        assert.equal(bad.isError, true);
        assert.match(textOf(bad), /^The API refused the input \(422\):\nurl: /);
        const none = await call(client, 'create_link', {});
        assert.match(textOf(none), /url: /);
        const page: Json = JSON.parse(textOf(await call(client, 'list_links', {})));
        assert.equal(page.meta.total, 0);
        const stats = await call(client, 'get_stats', { id: 1, name: 'nothing' });
        assert.equal(stats.isError, true);
        assert.match(textOf(stats), /name: /);
      });
    });

    test('GET and DELETE answer 405; no key or a bad key is the API’s 401', async () => {
      const { key } = await h().account();
      for (const method of ['GET', 'DELETE']) {
        const res = await h().request(method, '/api/v1/mcp', { key });
        assert.equal(res.status, 405, res.text);
        assert.deepEqual(res.body, { message: 'Method Not Allowed.', status: 405 });
        assert.equal(res.headers.get('allow'), 'POST');
      }
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      };
      const accept = { accept: 'application/json, text/event-stream' };
      for (const bad of [undefined, 'lpx_not_a_key']) {
        const res = await h().request('POST', '/api/v1/mcp', { json: initialize, headers: accept, key: bad });
        assert.equal(res.status, 401, res.text);
        assert.deepEqual(res.body, { message: 'Unauthenticated.', status: 401 });
      }
      await assert.rejects(connect(h(), 'lpx_not_a_key'), /401/);
      const raw = await h().request('POST', '/api/v1/mcp', { json: initialize, headers: accept, key });
      assert.equal(raw.status, 200, raw.text);
      assert.equal(raw.body.result.serverInfo.name, 'linkpix');
      assert.equal(raw.headers.get('mcp-session-id'), null, 'stateless: no session');
      const notice = { jsonrpc: '2.0', method: 'notifications/initialized' };
      const noticed = await h().request('POST', '/api/v1/mcp', { json: notice, headers: accept, key });
      assert.equal(noticed.status, 202, noticed.text);
      const jsonOnly = await h().request('POST', '/api/v1/mcp', { json: initialize, key });
      assert.equal(jsonOnly.status, 406, 'the transport asks for both JSON and SSE in Accept');
      const openapi = await h().request('GET', '/api/openapi.json');
      assert.equal(openapi.body.paths['/api/v1/mcp'], undefined, 'hidden from the OpenAPI document');
    });
  },
  { overrides: { healthChecker: { check: async () => ({ code: 404 }) } } },
);
