import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '../shared/errors/error-handler.ts';
import { tlsNameOf } from './tls-name.ts';
import type { CertifiableNames } from './visit-context.ts';

export interface TlsAllowedOptions {
  /** Hosts that are the app itself (APP_URL's). */
  appHosts: ReadonlySet<string>;
  /** The custom domains' names, from memory; null: none but the app's host. */
  names: CertifiableNames | null;
}

/**
 * GET /tls/allowed?domain=NAME: the `ask` of Caddy's on-demand TLS (deploy/Caddyfile). 200 for
 * the app's host and a verified custom domain whose workspace is not suspended and whose name is
 * not reserved, 404 for any other name, 400 for what is no name. Public and unlimited: it is
 * answered from the list of domain names in memory, which a flood of names cannot grow.
 */
export function registerTlsAllowed(app: FastifyInstance, options: TlsAllowedOptions): void {
  app.get('/tls/allowed', { schema: { hide: true }, config: { visitor: true } }, tlsAllowedHandler(options));
}

function tlsAllowedHandler({ appHosts, names }: TlsAllowedOptions) {
  return async function tlsAllowed(request: FastifyRequest, reply: FastifyReply) {
    const domain = (request.query as Record<string, unknown>).domain;
    const parsed = typeof domain === 'string' ? tlsNameOf(domain) : null;
    if (parsed === null) return reply.code(400).send(errorEnvelope(400, 'domain: a host name is required.'));
    if (appHosts.has(parsed.host)) return allowed(reply, parsed.host);
    if (parsed.name === null) return reply.code(400).send(errorEnvelope(400, 'domain: not a host name.'));
    if (names === null) return refused(reply);
    let known = names.mayCertify(parsed.name);
    if (known === undefined) {
      // Before the first load, or while a change is loaded: wait for that one shared read.
      await names.ready();
      known = names.mayCertify(parsed.name);
    }
    return known === true ? allowed(reply, parsed.name) : refused(reply);
  };
}

function allowed(reply: FastifyReply, domain: string) {
  return reply.code(200).header('cache-control', 'no-store').send({ domain, allowed: true });
}

function refused(reply: FastifyReply) {
  return reply.code(404).header('cache-control', 'no-store').send(errorEnvelope(404));
}
