// Entry of a QR render thread run from the sources (tests, tsx): registers tsx first, as
// click-writer-worker.mjs does, since a worker does not inherit the main thread's module hooks
// on Node 20. piscina calls this module's default export with each task.
import { register } from 'tsx/esm/api';

register();
const { default: renderPng } = await import('./qr-png-worker.ts');
export default renderPng;
