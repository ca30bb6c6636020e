// Entry of an import's thread from the sources: loads its TypeScript through tsx, as
// click-writer-worker.mjs does (a worker does not inherit the main thread's module hooks on Node 20).
import { register } from 'tsx/esm/api';

register();
await import('./import-thread.ts');
