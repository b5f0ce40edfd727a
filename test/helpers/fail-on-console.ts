/* eslint-disable no-console -- this module replaces the console to catch what tests write to it */
/**
 * Fails a test that writes to the console or to stdout/stderr: code under test reports through the logger it is
 * given (tests pass a MemoryLogger), so unexpected output is a defect, not noise. Installed for every project.
 */
const written: string[] = [];
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
const originalConsole = Object.fromEntries(methods.map((name) => [name, console[name]]));
let originalStdout: typeof process.stdout.write | undefined;
let originalStderr: typeof process.stderr.write | undefined;

function capture(channel: string) {
  return (...args: unknown[]): boolean => {
    written.push(
      `${channel}: ${args
        .map((arg) => (typeof arg === 'string' ? arg : String(arg)))
        .join(' ')
        .slice(0, 300)}`,
    );
    return true;
  };
}

beforeEach(() => {
  written.length = 0;
  for (const name of methods) console[name] = capture(`console.${name}`) as never;
  originalStdout = process.stdout.write;
  originalStderr = process.stderr.write;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
});

afterEach(() => {
  for (const name of methods) console[name] = originalConsole[name] as never;
  if (originalStdout) process.stdout.write = originalStdout;
  if (originalStderr) process.stderr.write = originalStderr;
  if (written.length > 0) {
    const lines = written.splice(0);
    throw new Error(`unexpected output during the test (pass a logger instead):\n${lines.join('\n')}`);
  }
});
