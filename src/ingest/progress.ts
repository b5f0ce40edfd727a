/**
 * Progress of long work (ingest, embedding): on a terminal one line redrawn at most five times a second, with the rate
 * and, when the share done is known, the time left; otherwise (a log, CI) a plain line at most every ten seconds.
 */
export class Progress {
  private last = 0;
  private readonly started: number;
  private readonly terminal: boolean;

  /**
   * `enabled` false: silent. `terminal`: redraw one line (a TTY) or print plain lines (anything else).
   * `now` is the clock (tests give their own).
   */
  constructor(
    private readonly enabled: boolean = Boolean(process.stderr.isTTY),
    terminal: boolean = Boolean(process.stderr.isTTY),
    private readonly write: (text: string) => void = (text) => void process.stderr.write(text),
    private readonly now: () => number = Date.now,
  ) {
    this.terminal = terminal;
    this.started = now();
  }

  /** `done` units so far; `fraction` (0–1) of the whole when it is known, for the time left. */
  update(label: string, done: number, unit: string, fraction?: number): void {
    if (!this.enabled) return;
    const now = this.now();
    if (now - this.last < (this.terminal ? 200 : 10_000)) return;
    this.last = now;
    const line = Progress.line(label, done, unit, (now - this.started) / 1000, fraction);
    this.write(this.terminal ? `\r\x1b[K${line}` : `${line}\n`);
  }

  done(): void {
    if (this.enabled && this.terminal) this.write('\r\x1b[K');
  }

  /** "file.jsonl: 1200 records (85.3/s, 14s, 40% done, about 21s left)". */
  static line(label: string, done: number, unit: string, seconds: number, fraction?: number): string {
    const rate = seconds > 0 ? (done / seconds).toFixed(1) : '0';
    let eta = '';
    if (fraction !== undefined && fraction > 0 && fraction < 1 && seconds > 0) {
      const left = (seconds * (1 - fraction)) / fraction;
      eta = `, ${Math.round(100 * fraction)}% done, about ${Progress.duration(left)} left`;
    }
    return `${label} ${done} ${unit} (${rate}/s, ${Progress.duration(seconds)}${eta})`;
  }

  static duration(seconds: number): string {
    const s = Math.round(seconds);
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
    return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  }
}
