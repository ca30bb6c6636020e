/** What the guards write with: the server's logger once there is one, the console before. */
export interface FatalLog {
  fatal(details: { err: unknown }, message: string): void;
}

/**
 * The last line of defence. Every long-lived client (the pg pool and its clients, ioredis, the
 * click writer thread) has its 'error' listener, and every background promise its catch, so a
 * lost connection is handled where it happens and never gets here. What does get here is a
 * programmer error, after which the process's state is unknown: it is logged, and the process
 * exits 1 for its supervisor to start a clean one.
 */
export function guardProcess(log: () => FatalLog, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('uncaughtException', (error) => {
    log().fatal({ err: error }, 'uncaught exception (a programmer error); exiting');
    exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    log().fatal({ err: reason }, 'unhandled promise rejection (a programmer error); exiting');
    exit(1);
  });
}

/** Before the logger exists, and when LOG_LEVEL=silent: a crash is still told. */
export const consoleFatalLog: FatalLog = {
  fatal: ({ err }, message) => console.error(`linkpix: ${message}:`, err),
};
