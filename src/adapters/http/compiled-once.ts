/**
 * A route compiler that compiles each schema once per process, however many apps ask for it:
 * what Ajv and fast-json-stringify make of a schema depends only on the schema and the context
 * (external schemas, options), and building it is most of what building an app costs, which
 * every test suite pays again (docs/design/tests.md).
 */
export function compiledOnce<R extends { schema?: unknown }, T>(
  cache: Map<string, T>,
  context: unknown,
  compile: (route: R) => T,
): (route: R) => T {
  const prefix = JSON.stringify(context);
  return (route) => {
    const key = `${prefix}\n${JSON.stringify(route.schema ?? null)}`;
    let compiled = cache.get(key);
    if (compiled === undefined) {
      compiled = compile(route);
      cache.set(key, compiled);
    }
    return compiled;
  };
}
