// `npm run lint:openapi`: the OpenAPI document the app serves, linted with Redocly's
// @redocly/openapi-core against redocly.yaml (its recommended rules). Any error or warning fails.
// docs/design/openapi.md.
import { join } from 'node:path';
import { formatProblems, lintFromString, loadConfig } from '@redocly/openapi-core';
import { ROOT } from '../test/support/processes.ts';
import { generatedDocument } from './openapi-document.ts';

const config = await loadConfig({ configPath: join(ROOT, 'redocly.yaml') });
const source = JSON.stringify(await generatedDocument(), null, 2);
const problems = await lintFromString({ source, absoluteRef: join(ROOT, 'openapi.json'), config });
if (problems.length > 0) {
  formatProblems(problems, { format: 'stylish', totals: { errors: 0, warnings: 0, ignored: 0 }, version: '' });
  console.error(`the OpenAPI document has ${problems.length} problem(s) (above)`);
  process.exit(1);
}
console.log('the OpenAPI document passes redocly.yaml');
// The built app's worker pools outlive its close by a while; a one-shot script is done here.
process.exit(0);
