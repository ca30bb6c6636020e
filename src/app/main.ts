import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { buildServer } from './server.ts';

/** `npm start`: read the configuration, migrate, listen, and stop cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig(process.env);
  const server = await buildServer(config);
  await server.app.listen({ port: config.PORT, host: config.HOST });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      server.app.log.error('requests still running at the shutdown deadline; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
