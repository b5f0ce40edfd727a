import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import Bottleneck from 'bottleneck';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientSettings, ProviderSettings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import type { ApiCallOutcome, RequestContext } from '../request-context';
import type { ResponseCache } from './response-cache';

export type ProviderName = 'openalex' | 'crossref' | 's2';

/** A failed call to a scholarly API: which provider, which HTTP status (if any), and whether to try again. */
export class ExternalError extends CitegraphError {
  override readonly name = 'ExternalError';
  constructor(
    code: ErrorCode,
    message: string,
    readonly provider: ProviderName,
    readonly status: number | undefined,
    retryable: boolean,
    cause?: unknown,
  ) {
    super(code, message, { retryable, cause, details: { provider, status } });
  }
}

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter between half and the whole of base·2^attempt, capped. */
export function backoffMs(attempt: number, base: number, cap: number, random = Math.random): number {
  const ceiling = Math.min(cap, base * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

// ENOTFOUND is left out: a host that does not resolve (an offline machine) will not resolve a second later.
const NETWORK_CODES = new Set([
  'ECONNABORTED',
  'ETIMEDOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'EAI_AGAIN',
  'ERR_CANCELED',
  'ERR_NETWORK',
  'EHOSTUNREACH',
]);

/**
 * The one place that talks HTTP to scholarly APIs: an axios instance, a Bottleneck limiter per host, timeouts, and
 * retries with exponential backoff and jitter on 429, 5xx and network errors, honouring Retry-After. Not-found is
 * null; other failures are ExternalErrors with a code and a retryable flag. Providers add only their requests and
 * their mapping to domain types.
 */
export abstract class ProviderBase {
  protected readonly http: AxiosInstance;
  protected readonly limiter: Bottleneck;

  protected constructor(
    readonly provider: ProviderName,
    protected readonly settings: ProviderSettings,
    protected readonly client: ClientSettings,
    protected readonly cache: ResponseCache,
    headers: Record<string, string> = {},
  ) {
    this.http = axios.create({
      baseURL: settings.baseUrl.replace(/\/$/, ''),
      timeout: client.timeoutMs,
      headers: {
        'User-Agent': `citegraph/0.1${settings.mailto ? ` (mailto:${settings.mailto})` : ''}`,
        Accept: 'application/json',
        ...headers,
      },
      // Bodies are parsed here, so that a malformed body is an error we name rather than a string we pass on.
      responseType: 'text',
      transformResponse: (data: unknown) => data,
      validateStatus: () => true,
      maxRedirects: 3,
    });
    this.limiter = new Bottleneck({
      maxConcurrent: settings.maxConcurrent,
      minTime: Math.ceil(1000 / settings.requestsPerSecond),
    });
  }

  /** Query parameters every request of this provider carries (keys, contact address). */
  protected defaultParams(): Record<string, string> {
    return {};
  }

  /** GET a JSON document; null on 404 (and 400s the provider uses for "no such id", see `notFoundStatuses`). */
  protected async getJson<T>(
    ctx: RequestContext,
    path: string,
    params: Record<string, string | number | undefined> = {},
  ): Promise<T | null> {
    const record = (outcome: ApiCallOutcome) => ctx.ledger.record(this.provider, outcome);
    const query: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...params, ...this.defaultParams() }))
      if (value !== undefined) query[key] = String(value);
    const key = `${this.provider} GET ${path}?${new URLSearchParams(Object.entries(query).sort()).toString()}`;
    const cached = this.cache.get<T | null>(key);
    if (cached !== undefined) {
      record('cached');
      return cached;
    }
    let lastError: ExternalError | undefined;
    for (let attempt = 0; attempt <= this.client.retries; attempt += 1) {
      if (ctx.deadline.expired) {
        lastError = new ExternalError(
          ErrorCode.EXTERNAL_TIMEOUT,
          `${this.provider} ${path}: the request's deadline passed`,
          this.provider,
          undefined,
          false,
        );
        break;
      }
      let response: AxiosResponse<string>;
      try {
        response = await this.limiter.schedule(() =>
          this.http.get<string>(path, {
            params: query,
            signal: AbortSignal.any([AbortSignal.timeout(this.client.timeoutMs + 1000), ctx.deadline.signal]),
          }),
        );
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        const timedOut =
          code === 'ECONNABORTED' ||
          code === 'ETIMEDOUT' ||
          code === 'ERR_CANCELED' ||
          /timeout/i.test(String((error as Error).message));
        lastError = new ExternalError(
          timedOut
            ? ErrorCode.EXTERNAL_TIMEOUT
            : code === 'ENOTFOUND'
              ? ErrorCode.EXTERNAL_UNREACHABLE
              : ErrorCode.EXTERNAL_HTTP,
          `${this.provider} ${path}: ${
            ctx.deadline.expired
              ? "the request's deadline passed"
              : timedOut
                ? `no answer within ${this.client.timeoutMs} ms`
                : (error as Error).message
          }`,
          this.provider,
          undefined,
          NETWORK_CODES.has(code) || timedOut,
          error,
        );
        if (!lastError.retryable || ctx.deadline.expired) break;
        await this.wait(ctx, attempt, undefined);
        continue;
      }
      const { status } = response;
      if (status >= 200 && status < 300) {
        const body = this.parse<T>(path, response, record);
        this.cache.set(key, body);
        record('ok');
        return body;
      }
      if (status === 404 || this.notFoundStatuses(status, response.data)) {
        this.cache.set(key, null);
        record('not_found');
        return null;
      }
      const retryable = status === 429 || status >= 500;
      lastError = new ExternalError(
        status === 429 ? ErrorCode.EXTERNAL_RATE_LIMITED : ErrorCode.EXTERNAL_HTTP,
        `${this.provider} ${path}: HTTP ${status}${describeBody(response.data)}`,
        this.provider,
        status,
        retryable,
      );
      if (!retryable) break;
      await this.wait(ctx, attempt, retryAfterMs(response.headers['retry-after']));
    }
    record('error');
    throw lastError!;
  }

  /** Some APIs answer a malformed id with 400 rather than 404; providers may treat such answers as not-found. */
  protected notFoundStatuses(_status: number, _body: string): boolean {
    return false;
  }

  private parse<T>(path: string, response: AxiosResponse<string>, record: (outcome: ApiCallOutcome) => void): T {
    try {
      return JSON.parse(response.data) as T;
    } catch (error) {
      record('error');
      throw new ExternalError(
        ErrorCode.EXTERNAL_BAD_RESPONSE,
        `${this.provider} ${path}: the body is not JSON (${String(response.data).slice(0, 60)}…)`,
        this.provider,
        response.status,
        false,
        error,
      );
    }
  }

  /** Waits before the next attempt, never past the request's deadline. */
  private async wait(ctx: RequestContext, attempt: number, retryAfter: number | undefined): Promise<void> {
    if (attempt >= this.client.retries) return;
    ctx.ledger.record(this.provider, 'retry');
    const delay =
      retryAfter !== undefined
        ? Math.min(retryAfter, this.client.maxBackoffMs)
        : backoffMs(attempt, this.client.backoffMs, this.client.maxBackoffMs);
    try {
      await sleep(Math.min(delay, ctx.deadline.remainingMs()), undefined, { signal: ctx.deadline.signal });
    } catch {
      // The deadline passed while waiting: the next attempt sees it and gives up.
    }
  }

  /** Stops the limiter (pending calls fail): for a clean shutdown. */
  async close(): Promise<void> {
    await this.limiter.stop({ dropWaitingJobs: true });
  }
}

function describeBody(body: unknown): string {
  if (typeof body !== 'string' || body.length === 0) return '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const message = parsed.message ?? parsed.error;
    return message ? ` (${typeof message === 'string' ? message : JSON.stringify(message)})`.slice(0, 300) : '';
  } catch {
    return ` (${body.slice(0, 120)})`;
  }
}
