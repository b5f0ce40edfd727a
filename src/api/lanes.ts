import type { ApiSettings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import { type RequestContext, Semaphore } from '../request-context';

/**
 * A bounded lane for one kind of heavy work (answers, searches, whole-graph analytics): at most `concurrency` run at
 * once and at most `queueLength` wait; one more is turned away at once with OVERLOADED and a retry hint. Cheap reads
 * take no lane, so they never wait behind heavy work. A waiting request gives up at its deadline.
 */
export class WorkLane {
  private readonly slots: Semaphore;
  /**
   * One place in the lane per request at a time: the aliases of one request (20 clusterings, say) run one after the
   * other, so that a single request never holds every slot while other clients wait.
   */
  private readonly perRequest = new WeakMap<RequestContext, Semaphore>();

  constructor(
    readonly name: string,
    concurrency: number,
    private readonly queueLength: number,
    /** Typical seconds one run takes, for the retry hint. */
    private readonly typicalSeconds: number,
  ) {
    this.slots = new Semaphore(concurrency);
  }

  get running(): number {
    return this.slots.active;
  }

  get waiting(): number {
    return this.slots.pending;
  }

  /** Throws OVERLOADED now when the lane and its queue are full (a stream checks before it starts). */
  checkRoom(): void {
    if (this.slots.active >= this.slots.size && this.slots.pending >= this.queueLength) {
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil(((this.slots.pending + 1) / this.slots.size) * this.typicalSeconds),
      );
      throw new CitegraphError(
        ErrorCode.OVERLOADED,
        `the service is busy with ${this.name} requests; try again in ${retryAfterSeconds} s`,
        { retryable: true, details: { retryAfterSeconds } },
      );
    }
  }

  async run<T>(ctx: RequestContext, work: () => Promise<T>): Promise<T> {
    const own = this.perRequest.get(ctx) ?? new Semaphore(1);
    this.perRequest.set(ctx, own);
    let releaseOwn: () => void;
    try {
      releaseOwn = await own.acquire(ctx.deadline.signal);
    } catch {
      throw new CitegraphError(
        ErrorCode.DEADLINE_EXCEEDED,
        `the request's deadline passed while it waited for ${this.name}`,
        { retryable: true },
      );
    }
    try {
      return await this.runOne(ctx, work);
    } finally {
      releaseOwn();
    }
  }

  private async runOne<T>(ctx: RequestContext, work: () => Promise<T>): Promise<T> {
    this.checkRoom();
    let release: () => void;
    try {
      release = await this.slots.acquire(ctx.deadline.signal);
    } catch {
      throw new CitegraphError(
        ErrorCode.DEADLINE_EXCEEDED,
        `the request's deadline passed while it waited for ${this.name}`,
        {
          retryable: true,
        },
      );
    }
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** The lanes of one server. */
export interface Lanes {
  readonly ask: WorkLane;
  readonly search: WorkLane;
  readonly analytics: WorkLane;
}

export function createLanes(settings: ApiSettings): Lanes {
  return {
    ask: new WorkLane('ask', settings.askConcurrency, settings.queueLength, 2),
    search: new WorkLane('search', settings.searchConcurrency, settings.queueLength, 0.2),
    analytics: new WorkLane('analytics', settings.analyticsConcurrency, settings.queueLength, 0.5),
  };
}
