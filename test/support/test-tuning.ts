import { TEST_TUNING_VARIABLE, type Tuning } from '../../src/app/tuning.ts';

/** The environment that moves constants in a process a test starts (server or CLI): docs/design/settings.md. */
export function tuningEnv(tuning: Partial<Tuning>): Record<string, string> {
  return { NODE_ENV: 'test', [TEST_TUNING_VARIABLE]: JSON.stringify(tuning) };
}
