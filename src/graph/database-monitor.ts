import type { GraphExecutor } from './executor';
import { queries } from './query-registry';

export interface DatabaseStatus {
  readonly reachable: boolean;
  readonly version: string | null;
  readonly edition: string | null;
  /** When the database was last asked, and how long it took to answer (or to fail). */
  readonly checkedAt: string;
  readonly latencyMs: number;
  readonly error: string | null;
}

/**
 * Knows whether the database answers without making a request wait for it: a probe runs in the background every few
 * seconds, so `health` answers at once even while heavy work holds the database, and says when it is unreachable.
 */
export class DatabaseMonitor {
  private status: DatabaseStatus | null = null;
  private pending: Promise<DatabaseStatus> | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** Probes failed in a row. */
  private failures = 0;

  constructor(
    private readonly executor: GraphExecutor,
    private readonly intervalMs = 2000,
    private readonly probeTimeoutMs = 2000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.executor.recheck = () => this.recheck();
    void this.probe();
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.executor.recheck = null;
    this.executor.setAvailability(true);
  }

  /**
   * Whether the database answers now, for work arriving during an outage: the probe in flight, or a new one. A failed
   * probe that had begun before this work arrived (while the database was still down, say) is followed by a fresh one,
   * so that work arriving just after the database is back goes through; a fresh probe's answer is final, so that
   * such work fails within about one probe timeout while the database is hung.
   */
  private async recheck(): Promise<boolean> {
    const asked = Date.now();
    const first = await this.probe();
    if (first.reachable || Date.parse(first.checkedAt) >= asked) return first.reachable;
    return (await this.probe()).reachable;
  }

  /** The last known status; probes now when none is known yet or it is older than two intervals. */
  async current(): Promise<DatabaseStatus> {
    const stale = !this.status || Date.now() - Date.parse(this.status.checkedAt) > 2 * this.intervalMs;
    if (stale) return this.probe();
    return this.status!;
  }

  /** Asks the database once (one probe at a time), bounded by the probe timeout. */
  probe(): Promise<DatabaseStatus> {
    this.pending ??= this.ask().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async ask(): Promise<DatabaseStatus> {
    const started = Date.now();
    try {
      // Bounded by the probe itself: a connection not answered in time fails it; a slow query alone does not.
      const rows = await this.executor.probe<{ version: string; edition: string }>(
        queries().health({}),
        this.probeTimeoutMs,
      );
      this.executor.setAvailability(true);
      this.failures = 0;
      this.status = {
        reachable: true,
        version: rows?.[0]?.version ?? this.status?.version ?? null,
        edition: rows?.[0]?.edition ?? this.status?.edition ?? null,
        checkedAt: new Date(started).toISOString(),
        latencyMs: Date.now() - started,
        error: null,
      };
    } catch (error) {
      // Only a monitor that runs (a serving process) gates the executor: one probe failing there fails requests fast.
      // Two probes in a row, so that one slow answer on a loaded machine does not fail every request.
      this.failures += 1;
      if (this.timer && this.failures >= 2) {
        this.executor.setAvailability(false, (error as Error).message.split('\n')[0]!.slice(0, 200));
      }
      this.status = {
        reachable: false,
        version: this.status?.version ?? null,
        edition: this.status?.edition ?? null,
        checkedAt: new Date(started).toISOString(),
        latencyMs: Date.now() - started,
        error: (error as Error).message.split('\n')[0]!.slice(0, 200),
      };
    }
    return this.status;
  }
}
