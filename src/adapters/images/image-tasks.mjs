// Entry of an image thread run from the sources (tests, tsx): registers tsx first, as
// qr-png-worker.mjs does, since a worker does not inherit the main thread's module hooks on
// Node 20. piscina calls the export a task names.
import { register } from 'tsx/esm/api';

register();
export const { readLogo, readCardImage } = await import('./image-tasks.ts');
