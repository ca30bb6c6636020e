import type { FastifyInstance } from 'fastify';

export interface TableRoute {
  /** As registered: `/links/:id/qr.png`, `/docs/*`. */
  path: string;
  methods: string[];
}

/**
 * Every route of an app, read from Fastify's own table (printRoutes, one node a line, four
 * characters of tree a level): a node's path is its ancestors' segments and its own.
 */
export function routeTable(app: FastifyInstance): TableRoute[] {
  const segments: string[] = [];
  const routes: TableRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    segments.length = node[1]!.length / 4;
    segments.push(node[2]!);
    if (node[3]) routes.push({ path: segments.join(''), methods: node[3].split(', ') });
  }
  return routes;
}
