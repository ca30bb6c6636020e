import { POLICY } from '../../core/workspaces/policy.ts';
import { policyOfRoute } from './route-actions.ts';

/** The document's security scheme: an API key sent as a bearer token (docs/api.md §1). */
const SECURITY_SCHEME = 'bearerAuth';

export interface OperationPolicy {
  security: Record<string, string[]>[];
  /** The key scopes the operation needs (none: any key of a member may). */
  'x-linkpix-scope': string[];
  /** The policy action (src/core/workspaces/policy.ts); null: any live key of its user. */
  'x-linkpix-action': string | null;
  /** The least role the action needs; null where no action is checked. */
  'x-linkpix-role': string | null;
}

/** The routes an API key opens: everything under /api/v1 and the seed's /{plural}/{id}/destroy. */
const isKeyedPath = (path: string) => path.startsWith('/api/v1/') || /^\/[a-z]+\/\{id\}\/destroy$/.test(path);

/**
 * An operation's security, read from the same route table the server enforces (route-actions.ts
 * and the policy matrix), so the document cannot promise a scope the server does not check.
 * `path` is in the document's `{param}` form.
 */
export function operationPolicy(method: string, path: string): OperationPolicy {
  if (!isKeyedPath(path))
    return { security: [], 'x-linkpix-scope': [], 'x-linkpix-action': null, 'x-linkpix-role': null };
  const { action } = policyOfRoute(method, path.replace(/\{(\w+)\}/g, ':$1'));
  if (action === null)
    return {
      security: [{ [SECURITY_SCHEME]: [] }],
      'x-linkpix-scope': [],
      'x-linkpix-action': null,
      'x-linkpix-role': null,
    };
  const rule = POLICY[action];
  const scopes: string[] = rule.scope === null ? [] : [rule.scope];
  return {
    security: [{ [SECURITY_SCHEME]: scopes }],
    'x-linkpix-scope': scopes,
    'x-linkpix-action': action,
    'x-linkpix-role': rule.role,
  };
}
