export { run, usage } from './run.js';
export { main } from './main.js';
export { PEOPLE_COMMANDS } from './commands/index.js';
export { EXIT } from './exit-codes.js';
export type { Io } from './output.js';
