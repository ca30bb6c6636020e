// `npm run cluster [-- --instances N] [--port P]`: several linkpix instances on PostgreSQL and
// Redis behind nginx, on this machine (docs/operations.md, "Several instances on one machine").
// DATABASE_URL (postgres://) is required; REDIS_URL defaults to the local Redis. Ctrl-C or
// SIGTERM stops nginx, then every instance, each writing its buffered clicks.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from '../test/support/cluster.ts';
import { ROOT } from '../test/support/processes.ts';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    port: { type: 'string', default: process.env.PORT ?? '8080' },
  },
});
const instances = Number(values.instances);
const port = Number(values.port);
const databaseUrl = process.env.DATABASE_URL ?? '';
const fail = (message: string) => {
  console.error(message);
  process.exit(2);
};
if (!Number.isInteger(instances) || instances < 1 || instances > 32)
  fail('--instances must be an integer from 1 to 32');
if (!Number.isInteger(port) || port < 1 || port > 65535) fail('--port must be a TCP port');
if (!/^postgres(ql)?:\/\//.test(databaseUrl))
  fail('DATABASE_URL must name a PostgreSQL database (postgres://…): the instances share it');

// tsc is incremental: a build that is up to date takes a moment.
for (const step of [
  [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  [join(ROOT, 'scripts', 'copy-assets.mjs')],
]) {
  if (spawnSync(process.execPath, step, { cwd: ROOT, stdio: 'inherit' }).status !== 0) fail('the build failed');
}

const cluster = await startCluster({
  instances,
  port,
  databaseUrl,
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  env: process.env.APP_URL ? { APP_URL: process.env.APP_URL } : {},
  detached: true,
});
// Out of the terminal's process group, they would outlive this script if it ended otherwise.
process.on('exit', () => cluster.kill());
for (const instance of cluster.instances) {
  instance.child.stdout?.pipe(process.stdout);
  instance.child.stderr?.pipe(process.stderr);
}
cluster.nginx.stderr?.pipe(process.stderr);
console.log(
  `linkpix: ${instances} instance(s) (${cluster.instances.map((i) => i.base).join(', ')}) behind nginx at ${cluster.url}`,
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping nginx, then every instance`);
  cluster.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// A dead instance leaves the others serving (nginx sends its visits to them); without nginx
// nothing is served, so the rest stop.
for (const instance of cluster.instances) {
  instance.child.once('exit', (code, signal) => {
    if (!stopping) console.error(`instance ${instance.index} exited (${code ?? signal}); the others go on serving`);
  });
}
cluster.nginx.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`nginx exited (${code ?? signal}); stopping the instances`);
  stop('nginx exit');
});
