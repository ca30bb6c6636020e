import type { Redis } from 'ioredis';
import { UnseedableError, type RedisClickQuota } from './redis-click-quota.ts';

/**
 * At each connection, in the background, whether Redis's scripts can read its run id: without
 * it no capped visit can be counted there, and each answers 503 (docs/design/caps.md). Told
 * once, as one error, until a connection finds it readable again; a connection lost meanwhile
 * is the outage's to tell.
 */
export function checkRunIdOnConnect(
  client: Pick<Redis, 'on'>,
  quota: Pick<RedisClickQuota, 'runId'>,
  onError: (error: unknown) => void,
): void {
  let told = false;
  client.on('ready', () => {
    quota.runId().then(
      () => void (told = false),
      (error: unknown) => {
        if (told || !(error instanceof UnseedableError)) return;
        told = true;
        onError(
          new Error(
            'Redis scripts cannot read run_id from INFO server: every visit of a capped link answers 503 until they can (docs/design/caps.md)',
            { cause: error },
          ),
        );
      },
    );
  });
}
