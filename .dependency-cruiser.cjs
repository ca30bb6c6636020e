// The layer rules of docs/architecture.md, checked by `npm run check:deps` (docs/adr/0022).
// What dependency-cruiser cannot see, a read of `process.env`, scripts/check-core-env.mjs greps for.

/** Frameworks, drivers and I/O libraries: adapters choose them, the core never does. */
const FRAMEWORKS_AND_DRIVERS = [
  'fastify',
  '@fastify/',
  'kysely',
  'better-sqlite3',
  'pg',
  'pg-[a-z-]+',
  'ioredis',
  'qs',
  '@sinclair/typebox',
  'undici',
  'htmlparser2',
  'html-encoding-sniffer',
  'whatwg-encoding',
  'rate-limiter-flexible',
  'ipaddr\\.js',
  'isbot',
  'ua-parser-js',
  'mmdb-lib',
  '@ip-location-db/',
  'qrcode',
  'nodemailer',
  'otpauth',
  'piscina',
  'lru-cache',
  'tsx',
  'prom-client',
];

/** Node modules that do I/O or reach the process: the core is pure rules. */
const NODE_IO = [
  'fs',
  'fs/promises',
  'net',
  'tls',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'dns/promises',
  'child_process',
  'cluster',
  'worker_threads',
  'process',
];

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
    {
      name: 'core-not-to-frameworks',
      comment: 'src/core knows no framework, driver or I/O library (docs/adr/0001).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        path: `^node_modules/(${FRAMEWORKS_AND_DRIVERS.join('|')})`,
      },
    },
    {
      name: 'core-not-to-node-io',
      comment:
        'src/core does no I/O and reads no process state: sockets, files, DNS, threads and `process` stay in adapters.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'], path: `^(node:)?(${NODE_IO.join('|')})$` },
    },
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
