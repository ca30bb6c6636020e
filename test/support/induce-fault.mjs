// Preloaded (node --import) into the server by test/e2e/process-guards.test.ts: on SIGUSR2 it
// commits the programmer error INDUCE_FAULT names, as a bug in linkpix would.
process.on('SIGUSR2', () => {
  if (process.env.INDUCE_FAULT === 'rejection') {
    void Promise.reject(new TypeError('induced programmer error (rejection)'));
  } else {
    setImmediate(() => {
      throw new TypeError('induced programmer error (exception)');
    });
  }
});
