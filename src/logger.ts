/** The logger passed to code that reports progress or problems; tests pass one that records instead of printing. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const consoleLogger: Logger = {
  info: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`warning: ${message}\n`),
  error: (message) => process.stderr.write(`error: ${message}\n`),
};

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A logger that keeps what it is told, for tests and for reports. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info: ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error: ${message}`);
  }
}
