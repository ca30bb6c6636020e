import { domainToASCII } from 'node:url';
import type { Linkpix } from '@linkpix/sdk';
import { NotFoundError, UsageError } from './exit-codes.js';

/**
 * The domain id `--domain` stands for. A person types the host name (`go.brand.example`, any
 * letter case, a trailing dot, an internationalised name), looked up in the workspace's domains;
 * digits alone are the domain's id, as the API takes it.
 */
export async function domainId(client: Linkpix, value: string): Promise<number> {
  if (/^\d+$/.test(value)) return Number(value);
  const name = domainToASCII(value.trim().replace(/\.$/, '').toLowerCase());
  if (name === '') throw new UsageError(`--domain must be a host name or a domain's id, not "${value}"`);
  for await (const domain of client.domains.list({ search: name })) if (domain.name === name) return domain.id;
  throw new NotFoundError(`No domain ${name} in this workspace (\`GET /api/v1/domains\` lists them).`);
}
