// `linkpix mcp` (packages/cli, docs/api.md, MCP) spawned by the MCP SDK's own StdioClientTransport
// through the repository's bin/linkpix.js, against the compiled server as a process of its own on
// each engine: the handshake and the eight tools relayed to POST /api/v1/mcp, a link made and read
// back over stdio, a 422 and a refused scope as tool errors, and a bad key told to the client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { BIN, ROOT, cliAccountKey, cliDatabase, startServerProcess, type ServerProcess } from '../support/processes.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `linkpix mcp` with the server's URL and the key in its environment, as an MCP client's config starts it. */
async function stdioClient(base: string, key: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LINKPIX_URL: base, LINKPIX_API_KEY: key },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'linkpix-e2e', version: '1' });
  await client.connect(transport);
  return client;
}

const textOf = (result: unknown): string => {
  const first = (result as CallToolResult).content[0];
  assert.ok(first?.type === 'text', JSON.stringify(result));
  return first.text;
};

for (const engine of ['sqlite', 'postgres'] as const) {
  const skip = engine === 'postgres' ? (POSTGRES_SKIP ?? false) : false;
  describe(`linkpix mcp over stdio against the server process [${engine}]`, { skip }, () => {
    let server: ServerProcess;
    let cleanup: () => Promise<void>;
    let key: string;

    before(async () => {
      const db = await cliDatabase(engine);
      cleanup = db.cleanup;
      server = await startServerProcess(db.env);
      key = await cliAccountKey(server.env, `mcp-${engine}@example.com`);
    });
    after(async () => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      await cleanup?.();
    });

    test('initialize, tools/list, create_link then get_link and list_links; a 422 as a tool error', async () => {
      const client = await stdioClient(server.base, key);
      try {
        assert.equal(client.getServerVersion()?.name, 'linkpix');
        const { tools } = await client.listTools();
        assert.equal(tools.length, 8);
        assert.ok(tools.some((t) => t.name === 'record_conversion'));

        const made = await client.callTool({ name: 'create_link', arguments: { url: 'https://example.com/stdio' } });
        assert.equal(made.isError, undefined, textOf(made));
        const link: Json = JSON.parse(textOf(made));
        assert.equal(link.short_url, `${server.base}/${link.alias}`);
        const got: Json = JSON.parse(textOf(await client.callTool({ name: 'get_link', arguments: { id: link.id } })));
        assert.equal(got.url, 'https://example.com/stdio');
        const page: Json = JSON.parse(textOf(await client.callTool({ name: 'list_links', arguments: {} })));
        assert.deepEqual(
          page.data.map((l: Json) => l.id),
          [link.id],
        );

        const bad = await client.callTool({ name: 'create_link', arguments: { url: 'ftp://example.com/' } });
        assert.equal(bad.isError, true);
        assert.match(textOf(bad), /\(422\):\nurl: /);
      } finally {
        await client.close();
      }
    });

    test('a key without links:write is refused create_link by its route; a bad key fails the handshake', async () => {
      const made = await fetch(`${server.base}/api/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } });
      const workspaceId = (await made.json()).data[0].id as number;
      const scoped = await fetch(`${server.base}/api/v1/workspaces/${workspaceId}/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'read only', scopes: ['links:read'] }),
      });
      assert.equal(scoped.status, 201);
      const readOnly = (await scoped.json()).data.key as string;
      const client = await stdioClient(server.base, readOnly);
      try {
        const refused = await client.callTool({ name: 'create_link', arguments: { url: 'https://example.com/no' } });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /403: This key lacks the scope links:write\./);
      } finally {
        await client.close();
      }
      await assert.rejects(
        stdioClient(server.base, 'lpx_not_a_key'),
        /linkpix: the server refused the key \(401 Unauthenticated\)/,
      );
    });
  });
}
