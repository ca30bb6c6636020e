import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { SealKeyError } from '../adapters/secrets/seal-keys.ts';
import { SqliteFileError } from '../adapters/storage/sqlite-file-error.ts';
import { buildServer } from './server.ts';
import { retiredSettingsWarning } from './retired-settings.ts';
import { testTuning } from './tuning.ts';
import { consoleFatalLog, guardProcess, type FatalLog } from './process-guards.ts';

/** EX_TEMPFAIL: a temporary condition, start again (the end of a start from the redirect snapshot). */
const RESTART_EXIT_CODE = 75;

/** `npm start`: read the configuration, migrate, listen, and stop cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let log: FatalLog = consoleFatalLog;
  guardProcess(() => log);
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig(process.env);
  const server = await buildServer(config, { tuning: testTuning(process.env) });
  if (config.LOG_LEVEL !== 'silent') log = server.app.log;
  // One line naming every variable set that is no longer read (docs/design/settings.md).
  const retired = retiredSettingsWarning(process.env);
  if (retired !== null) server.app.log.warn(retired);
  // Before the first click is written under its lease; never awaited: a start does not wait
  // for another instance's clicks to be rolled up (failures are reported and retried).
  server.startClickRecovery();
  // Listening only once the writer thread can write: visits answered while it started had their
  // clicks queue up unwritten, more than a flush interval of them (docs/design/clicks.md).
  await server.container.visits.startClickWriter();
  await server.app.listen({ port: config.PORT, host: config.HOST });
  // The address short links are built on, which a listening socket's address need not be.
  server.app.log.info({ appUrl: config.APP_URL }, `linkpix serves at ${config.APP_URL}`);
  // After listen, not before: a start never waits for the cache, and visits share its reads. A
  // start from the redirect snapshot has nothing to warm up from.
  const warming = performance.now();
  if (!server.databaseBack)
    server.container.visits.warmUp().then(
      (links) => server.app.log.info({ links, ms: Math.round(performance.now() - warming) }, 'link cache warmed up'),
      (err: unknown) =>
        server.app.log.warn({ err }, 'the link cache warm-up failed; links are read as they are visited'),
    );

  let stopping = false;
  const stop = async (signal: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    // The deadline is for requests in flight. Buffered clicks are written after it, however
    // long that takes: exiting earlier would lose them.
    const deadline = setTimeout(() => {
      server.app.log.error('requests still running at the shutdown deadline; closing their connections');
      server.app.server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    await server.app.close();
    clearTimeout(deadline);
    // Clicks still on this thread; the writer thread may hold more, which it writes too.
    server.app.log.info(
      { clicksHere: server.container.visits.sink.pending },
      'writing every click and statistic not yet written',
    );
    await server.release();
    process.exit(exitCode);
  };
  // A stop that fails (the database closing badly) still ends the process, and says why.
  const stopOn =
    (signal: string, exitCode = 0) =>
    () =>
      void stop(signal, exitCode).catch((err: unknown) => {
        server.app.log.error({ err }, 'the stop failed');
        process.exit(1);
      });
  process.on('SIGTERM', stopOn('SIGTERM'));
  process.on('SIGINT', stopOn('SIGINT'));
  // Started during a database outage, from the redirect snapshot: once the database is back, a
  // graceful stop (every click written), for the supervisor to start it whole (docs/design/snapshot.md).
  // Not 0: a supervisor that restarts only a failed process (systemd's Restart=on-failure, Docker's
  // on-failure) must start this one too.
  if (server.databaseBack) {
    server.app.log.warn('the database cannot be reached: started from the redirect snapshot, redirects only');
    server.databaseBack.then(
      () => {
        server.app.log.info(
          `the database is back: stopping (exit ${RESTART_EXIT_CODE}) for the supervisor to start this instance whole`,
        );
        stopOn('the database is back', RESTART_EXIT_CODE)();
      },
      () => {},
    );
  }
}

main().catch((error: unknown) => {
  // A start that fails for what its operator must put right says so in one line, not a stack.
  if (error instanceof ConfigError || error instanceof SealKeyError || error instanceof SqliteFileError)
    console.error(error.message);
  else console.error(error);
  process.exit(1);
});
