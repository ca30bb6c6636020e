import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../adapters/http/app.ts';
import type { Config } from './config.ts';
import { createContainer, type Container, type ContainerOverrides } from './container.ts';

export interface Server {
  app: FastifyInstance;
  container: Container;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** Builds a ready server (database migrated) that has not started listening. */
export async function buildServer(config: Config, overrides: ContainerOverrides = {}): Promise<Server> {
  const container = createContainer(config, overrides);
  try {
    await container.migrate();
    const app = await createHttpApp(container, {
      logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: config.TRUST_PROXY,
      rateLimit: { max: config.API_RATE_LIMIT, windowMs: config.API_RATE_WINDOW_SECONDS * 1000 },
    });
    await app.ready();
    return {
      app,
      container,
      close: async () => {
        await app.close();
        await container.close();
      },
    };
  } catch (error) {
    await container.close();
    throw error;
  }
}
