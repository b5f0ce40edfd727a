import { AsyncLocalStorage } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';

/**
 * What one request carries through the layers: its LLM (metered, or none), a ledger of the scholarly-API calls it
 * made, its deadline, and the warnings it collected for the client. The GraphQL resolver creates one per request; an
 * `ask` forks its own so that two asks in one request (or two requests at once) each report only their own calls.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatResult {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

export interface ChatOptions {
  json?: boolean;
  maxTokens?: number;
  /** Aborts the call (the request's deadline or a disconnected client). */
  signal?: AbortSignal;
}

/** A chat model. The pipeline works without one; with one, it routes, rewrites, expands and writes answers. */
export interface LlmClient {
  readonly model: string;
  chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult>;
}

/** LLM calls and tokens spent for one request (and, through the parent, for the request that holds it). */
export class LlmMeter {
  calls = 0;
  promptTokens = 0;
  completionTokens = 0;

  constructor(private readonly parent: LlmMeter | null = null) {}

  record(result: Pick<ChatResult, 'promptTokens' | 'completionTokens'>): void {
    this.calls += 1;
    this.promptTokens += result.promptTokens;
    this.completionTokens += result.completionTokens;
    this.parent?.record(result);
  }
}

/** The outcome of one call to a scholarly API; `cached` answers cost the provider nothing. */
export type ApiCallOutcome = 'ok' | 'not_found' | 'error' | 'retry' | 'cached';

/** Calls to the scholarly APIs made for one request, by provider and outcome. */
export class ApiCallLedger {
  private readonly byProvider = new Map<string, Map<ApiCallOutcome, number>>();

  constructor(private readonly parent: ApiCallLedger | null = null) {}

  record(provider: string, outcome: ApiCallOutcome): void {
    const outcomes = this.byProvider.get(provider) ?? new Map<ApiCallOutcome, number>();
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    this.byProvider.set(provider, outcomes);
    this.parent?.record(provider, outcome);
  }

  /** Every outcome per provider, e.g. `{openalex: {ok: 2, retry: 1}}`. */
  counts(): Record<string, Record<string, number>> {
    return Object.fromEntries(
      [...this.byProvider].map(([provider, outcomes]) => [provider, Object.fromEntries(outcomes)]),
    );
  }

  /** HTTP requests sent per provider (everything but cache hits), providers with none left out. */
  requests(): Array<{ provider: string; calls: number }> {
    return [...this.byProvider]
      .map(([provider, outcomes]) => ({
        provider,
        calls: [...outcomes].filter(([outcome]) => outcome !== 'cached').reduce((sum, [, n]) => sum + n, 0),
      }))
      .filter((entry) => entry.calls > 0)
      .sort((a, b) => (a.provider < b.provider ? -1 : 1));
  }
}

/** Waits one request may have pending at once on its deadline (fields waiting for a connection, say). */
const MAX_WAITS = 1000;

/** When a request must have answered; its signal aborts the work still running for it at that moment. */
export class Deadline {
  readonly at: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number | null, parent: AbortSignal | null = null) {
    // Every wait of the request (for one of its connections, a lane, a stream write) listens on this signal, and a
    // query with many fields waits on many at once: far more than the default of 10 listeners before Node warns.
    setMaxListeners(MAX_WAITS, this.controller.signal);
    this.at = timeoutMs === null ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    if (timeoutMs !== null) {
      this.timer = setTimeout(() => this.controller.abort(new Error(`deadline of ${timeoutMs} ms passed`)), timeoutMs);
      this.timer.unref();
    }
    if (parent) {
      if (parent.aborted) this.controller.abort(parent.reason);
      else {
        const follow = () => this.controller.abort(parent.reason);
        parent.addEventListener('abort', follow, { once: true });
        // Forgotten when this deadline ends: a parent with many children would otherwise collect listeners.
        this.unfollow = () => parent.removeEventListener('abort', follow);
      }
    }
  }

  private unfollow: (() => void) | null = null;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Milliseconds left (Infinity without a deadline, 0 once passed). */
  remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  /** The request has answered: the timer stops, and anything still running for it is told to stop. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.unfollow?.();
    this.unfollow = null;
    if (!this.controller.signal.aborted) this.controller.abort(new Error('the request has ended'));
  }
}

/** An LLM whose every call is counted in a meter and bounded by the request's signal. */
class MeteredLlm implements LlmClient {
  constructor(
    private readonly inner: LlmClient,
    private readonly meter: LlmMeter,
    private readonly signal: AbortSignal,
  ) {}

  get model(): string {
    return this.inner.model;
  }

  async chat(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const result = await this.inner.chat(messages, { ...options, signal: options.signal ?? this.signal });
    this.meter.record(result);
    return result;
  }
}

export interface RequestContextOptions {
  /** The configured LLM, or null when none is. */
  llm: LlmClient | null;
  /** Use the LLM (when one is configured); false keeps the whole request offline-deterministic. */
  useLlm?: boolean;
  /** Milliseconds the request may take; null for none (command-line work). */
  timeoutMs?: number | null;
  /** Aborts the request from outside (a client that disconnected). */
  signal?: AbortSignal | null;
}

/** A stage of the ask pipeline that has just finished, with the state it left (for streaming to a client). */
export interface StageEvent {
  stage: string;
  ms: number;
  note: string;
  state: unknown;
}

/** The per-request context handed from the resolver through ask, search and the external clients. */
export class RequestContext {
  /** Called as each stage of the request's pipeline finishes (set by a streaming client; forks share it). */
  private stageListener: ((event: StageEvent) => void) | null = null;
  private readonly parent: RequestContext | null;
  readonly meter: LlmMeter;
  readonly ledger: ApiCallLedger;
  readonly deadline: Deadline;
  readonly useLlm: boolean;
  /** Things the client should know about the answer (a capped list, an unknown id); shown in `extensions.warnings`. */
  readonly warnings: string[];
  /** The metered LLM, or null when none is configured or `useLlm` is false. */
  readonly llm: LlmClient | null;
  private readonly rawLlm: LlmClient | null;

  private constructor(
    rawLlm: LlmClient | null,
    useLlm: boolean,
    deadline: Deadline,
    parent: RequestContext | null,
    warnings: string[],
  ) {
    this.rawLlm = rawLlm;
    this.useLlm = useLlm;
    this.deadline = deadline;
    this.meter = new LlmMeter(parent?.meter ?? null);
    this.ledger = new ApiCallLedger(parent?.ledger ?? null);
    this.warnings = warnings;
    this.llm = rawLlm && useLlm ? new MeteredLlm(rawLlm, this.meter, deadline.signal) : null;
    this.parent = parent;
  }

  /** Listens to the stages of this request's pipeline as they finish (one listener; null removes it). */
  onStage(listener: ((event: StageEvent) => void) | null): void {
    this.stageListener = listener;
  }

  /** Tells the listener of this request (or of the request it is part of) that a stage has finished. */
  stageDone(event: StageEvent): void {
    this.listenerOf()?.(event);
  }

  private listenerOf(): ((event: StageEvent) => void) | null {
    return this.stageListener ?? this.parent?.listenerOf() ?? null;
  }

  static create(options: RequestContextOptions): RequestContext {
    return new RequestContext(
      options.llm,
      options.useLlm ?? true,
      new Deadline(options.timeoutMs ?? null, options.signal ?? null),
      null,
      [],
    );
  }

  /**
   * A context for one part of the request (one `ask`): its own meter and ledger, whose records also count for this
   * one; the same deadline and warnings. `useLlm: false` switches the LLM off for that part only.
   */
  fork(options: { useLlm?: boolean | null } = {}): RequestContext {
    return new RequestContext(this.rawLlm, this.useLlm && (options.useLlm ?? true), this.deadline, this, this.warnings);
  }

  /** Adds a warning once. */
  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }
}

/** A counting semaphore: at most `size` holders at once, the others wait in order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Holders now. */
  get active(): number {
    return this.held;
  }

  /** Callers waiting for a place. */
  get pending(): number {
    return this.waiting.length;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.held >= this.size) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        this.waiting.push(wake);
      });
    }
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      this.waiting.shift()?.();
    };
  }
}

/**
 * What the database layer knows of the request it works for, without every service passing it on: its deadline
 * (transactions end with it) and its share of the connection pool. The HTTP layer runs each request inside one.
 */
export interface RequestScope {
  readonly deadline: Deadline;
  readonly connections: Semaphore;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();
