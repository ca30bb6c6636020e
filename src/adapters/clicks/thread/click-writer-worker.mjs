// Entry of the click writer thread: loads its TypeScript through tsx, as bin/linkpix.js does
// (a worker does not inherit the main thread's module hooks on Node 20).
import { register } from 'tsx/esm/api';

register();
await import('./click-writer-worker.ts');
