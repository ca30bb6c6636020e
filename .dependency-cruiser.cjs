// The layer rules of docs/architecture.md, checked by `npm run check:deps`.
// What dependency-cruiser cannot see, a read of `process.env`, scripts/check-core-env.mjs greps for.

/**
 * The npm packages src/core may import: pure libraries without I/O, each with its reason in
 * "Libraries core may use" of docs/architecture.md. Any other package fails the check.
 */
const CORE_PACKAGES = ['ipaddr\\.js', 'i18n-iso-countries', 'negotiator'];
/** Besides those, what the core's own unit tests (`*.test.ts` beside the code) use. */
const CORE_TEST_PACKAGES = ['fast-check'];

/** The Node modules src/core may import: computation only, no sockets, files, DNS, threads or `process`. */
const CORE_NODE_MODULES = ['crypto', 'util', 'buffer'];
/** Besides those, the test runner and its assertions, for the core's unit tests. */
const CORE_TEST_NODE_MODULES = ['test', 'assert', 'assert/strict'];

const NPM = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];

/** The core's allow-lists as rules: packages and Node modules, each once for its code and once for its tests. */
function coreRules() {
  const comment =
    'src/core imports only the pure libraries and Node modules listed in docs/architecture.md ' +
    '("Libraries core may use"): no framework, driver or I/O library, no socket, file or process.';
  const code = { path: '^src/core/', pathNot: '\\.test\\.ts$' };
  const tests = { path: '^src/core/.+\\.test\\.ts$' };
  const packages = (names) => ({ dependencyTypes: NPM, pathNot: `^node_modules/(${names.join('|')})/` });
  const modules = (names) => ({ dependencyTypes: ['core'], pathNot: `^(node:)?(${names.join('|')})$` });
  return [
    { name: 'core-only-listed-packages', comment, severity: 'error', from: code, to: packages(CORE_PACKAGES) },
    {
      name: 'core-tests-only-listed-packages',
      comment,
      severity: 'error',
      from: tests,
      to: packages([...CORE_PACKAGES, ...CORE_TEST_PACKAGES]),
    },
    { name: 'core-only-listed-node-modules', comment, severity: 'error', from: code, to: modules(CORE_NODE_MODULES) },
    {
      name: 'core-tests-only-listed-node-modules',
      comment,
      severity: 'error',
      from: tests,
      to: modules([...CORE_NODE_MODULES, ...CORE_TEST_NODE_MODULES]),
    },
  ];
}

/**
 * The adapter → adapter imports allowed, as [from, to] folder names under src/adapters/; it mirrors
 * "Adapters that may import each other" in docs/architecture.md (each pair's reason is there). Any other
 * import between two adapters fails the check, so the mesh cannot grow; no pair runs both ways. The entry
 * adapters (http, web, and the redirect) never import each other, but for the one pair marked there as
 * until the redirect room. src/adapters/shared/ is not listed: every adapter may import it.
 */
const ADAPTER_IMPORTS_ALLOWED = [
  ['cache', 'state'],
  ['cli', 'import'],
  ['cli', 'secrets'],
  ['clicks', 'metrics'],
  ['clicks', 'storage'],
  ['http', 'geo'],
  ['http', 'images'],
  ['http', 'import'],
  ['http', 'metrics'],
  ['http', 'qr'],
  ['http', 'ua'],
  // The MCP tools' input schemas are the API routes' own validators (docs/design/mcp.md).
  ['mcp', 'http'],
  ['qr', 'images'],
  ['redirect', 'geo'],
  ['redirect', 'metrics'],
  ['redirect', 'ua'],
  ['secrets', 'storage'],
  ['storage', 'images'],
  ['storage', 'import'],
  ['web', 'geo'],
  ['web', 'images'],
  ['web', 'import'],
  ['web', 'oidc'],
  ['web', 'qr'],
  ['web', 'state'],
  ['web', 'ua'],
];

/** Adapters a folder may import besides itself: shared/ for every one, then its allowed pairs. */
function adapterTargets(from) {
  return ['shared', ...ADAPTER_IMPORTS_ALLOWED.filter(([source]) => source === from).map(([, target]) => target)];
}

/**
 * One rule per adapter that has allowed pairs, one for shared/ (which imports no other adapter: what
 * the adapters share depends on none of them), and one for every other adapter (new folders included),
 * which may import only itself and shared/. Unit tests beside the code are left out: like test/, they
 * wire real adapters together.
 */
function adapterRules() {
  const sources = [...new Set(ADAPTER_IMPORTS_ALLOWED.map(([from]) => from))];
  const comment =
    'An adapter imports another adapter only through a pair on the allow-list of docs/architecture.md ' +
    '("Adapters that may import each other"); src/adapters/shared/ may be imported by every adapter.';
  const listed = sources.map((from) => ({
    name: `adapter-to-adapter-not-allowed (${from})`,
    comment,
    severity: 'error',
    from: { path: `^src/adapters/${from}/`, pathNot: '\\.test\\.ts$' },
    to: { path: '^src/adapters/', pathNot: `^src/adapters/(${[from, ...adapterTargets(from)].join('|')})/` },
  }));
  const shared = {
    name: 'shared-imports-no-adapter',
    comment:
      'src/adapters/shared/ is what the adapters share (docs/architecture.md): it imports the core, never another adapter.',
    severity: 'error',
    from: { path: '^src/adapters/shared/', pathNot: '\\.test\\.ts$' },
    to: { path: '^src/adapters/', pathNot: '^src/adapters/shared/' },
  };
  const others = {
    name: 'adapter-to-adapter-not-allowed',
    comment,
    severity: 'error',
    from: {
      path: '^src/adapters/([^/]+)/',
      pathNot: [`^src/adapters/(${[...sources, 'shared'].join('|')})/`, '\\.test\\.ts$'],
    },
    to: { path: '^src/adapters/', pathNot: '^src/adapters/($1|shared)/' },
  };
  return [...listed, shared, others];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-not-to-adapters-or-app',
      comment: 'src/core is the inside: adapters and the app depend on it, never the reverse.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(adapters|app)/' },
    },
    ...coreRules(),
    {
      name: 'adapters-not-to-app',
      comment: 'Adapters are wired by src/app (the composition roots: main.ts, cli.ts), never import it.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'src-not-to-tests',
      comment:
        'The application ships without its tests, benchmarks and scripts (unit tests beside the code may use test/support).',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'No module depends on itself through others, type-only imports included.',
      severity: 'error',
      from: { path: '^(src|test|bench|scripts|bin)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    ...adapterRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    // Type-only imports count: a core file must not even name an adapter's types.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
