import { OUTBOUND_ALIASES, SETTING_NAMES } from './config.ts';
import { TEST_TUNING_VARIABLE, TUNING } from './tuning.ts';

type Env = Record<string, string | undefined>;

/** Variables that were settings and what took each one's place, where something did (docs/design/settings.md). */
const REPLACED: Readonly<Record<string, string>> = {
  ...Object.fromEntries(OUTBOUND_ALIASES.map((name) => [name, 'OUTBOUND_ALLOW_PRIVATE (read as it for this release)'])),
  METRICS_HOST: 'METRICS_PORT=host:port (read for a bare port for this release)',
  HTTP_FAST_LANE: 'nothing: every request goes through node:http',
};

/**
 * The one line a start logs when the environment still sets variables linkpix no longer reads
 * (null when it sets none): each named, with what replaced it. A name is told only once it is
 * no longer a setting, so a retirement announced here waits for the setting's own removal.
 */
export function retiredSettingsWarning(env: Env): string | null {
  const set = (name: string) => env[name] !== undefined && !SETTING_NAMES.has(name);
  const replaced = Object.keys(REPLACED)
    .filter(set)
    .map((name) => `${name} → ${REPLACED[name]}`);
  const constants = Object.keys(TUNING).filter(set);
  const parts = [...replaced];
  if (constants.length > 0) parts.push(`${constants.join(', ')} → constants (docs/design/settings.md)`);
  if (env[TEST_TUNING_VARIABLE] !== undefined && env.NODE_ENV !== 'test')
    parts.push(`${TEST_TUNING_VARIABLE} → nothing: read by tests only (NODE_ENV=test)`);
  return parts.length === 0 ? null : `settings no longer read are set: ${parts.join('; ')}`;
}
