/** A one-line progress display on a terminal; silent when stderr is not a TTY. */
export class Progress {
  private last = 0;
  private readonly started = Date.now();
  constructor(private readonly enabled: boolean = Boolean(process.stderr.isTTY)) {}

  update(label: string, done: number, unit: string): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? (done / seconds).toFixed(1) : '0';
    process.stderr.write(`\r\x1b[K${label} ${done} ${unit} (${rate}/s, ${seconds.toFixed(0)}s)`);
  }

  done(): void {
    if (this.enabled) process.stderr.write('\r\x1b[K');
  }
}
