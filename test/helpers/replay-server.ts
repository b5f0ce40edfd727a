import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SHARED_DIR } from './test-database';

/** One recorded HTTP interaction (see ../shared/fixtures/SOURCES.md). */
export interface Interaction {
  method: string;
  url: string;
  status: number;
  content_type?: string;
  body_json?: unknown;
  body_text?: string;
}

/** A scripted answer for fault injection: a response, a hang, or a body that is not JSON. */
export type Scripted =
  { status: number; headers?: Record<string, string>; body?: unknown } | { hang: true } | { malformed: true };

/** Parameters that carry credentials: recorded as REDACTED, so they take no part in matching. */
const IGNORED = new Set(['api_key', 'mailto', 'email']);

/** Method, decoded path and sorted query (credentials dropped, per-page ≡ per_page) of a URL. */
export function requestKey(method: string, url: URL): string {
  const params = [...url.searchParams.entries()]
    .filter(([key]) => !IGNORED.has(key))
    .map(([key, value]) => `${key === 'per-page' ? 'per_page' : key}=${value}`)
    .sort();
  return `${method.toUpperCase()} ${decodeURIComponent(url.pathname)}?${params.join('&')}`;
}

export function loadRecorded(provider: 'crossref' | 'openalex' | 'semanticscholar'): Interaction[] {
  const dir = path.join(SHARED_DIR, 'fixtures', provider, 'recorded');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== '_index.json')
    .flatMap((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Interaction[]);
}

/**
 * A local HTTP server on 127.0.0.1 that replays recorded real responses (matched on method, path and query), and
 * answers scripted faults for paths given to `script`. Unmatched requests get 501 and are listed in `unmatched`.
 */
export class ReplayServer {
  readonly requests: Array<{ key: string; at: number }> = [];
  readonly unmatched: string[] = [];
  private readonly recorded = new Map<string, Interaction>();
  private readonly scripts = new Map<string, Scripted[]>();
  private server: http.Server | undefined;
  private inFlight = 0;
  maxInFlight = 0;
  /** Delay before answering anything, to observe concurrency. */
  delayMs = 0;

  constructor(interactions: Interaction[] = []) {
    for (const interaction of interactions) {
      const key = requestKey(interaction.method, new URL(interaction.url));
      // Keep the first 2xx recording of a request when several exist.
      if (!this.recorded.has(key) || (this.recorded.get(key)!.status >= 300 && interaction.status < 300))
        this.recorded.set(key, interaction);
    }
  }

  /** Answers requests to `pathname` with these responses in order (the last one repeats). */
  script(pathname: string, responses: Scripted[]): void {
    this.scripts.set(pathname, [...responses]);
  }

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const key = requestKey(request.method ?? 'GET', url);
    this.requests.push({ key, at: Date.now() });
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const finish = () => {
      this.inFlight -= 1;
    };
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const scripted = this.scripts.get(url.pathname);
    if (scripted) {
      const next = scripted.length > 1 ? scripted.shift()! : scripted[0]!;
      if ('hang' in next) {
        request.on('close', finish);
        return; // never answers
      }
      if ('malformed' in next) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [ {"id": "W1", ');
        finish();
        return;
      }
      response
        .writeHead(next.status, { 'content-type': 'application/json', ...next.headers })
        .end(next.body === undefined ? '' : JSON.stringify(next.body));
      finish();
      return;
    }
    const recorded = this.recorded.get(key);
    if (!recorded) {
      this.unmatched.push(key);
      response.writeHead(501, { 'content-type': 'text/plain' }).end(`no recording for ${key}`);
      finish();
      return;
    }
    const body = recorded.body_json !== undefined ? JSON.stringify(recorded.body_json) : (recorded.body_text ?? '');
    response.writeHead(recorded.status, { 'content-type': recorded.content_type ?? 'application/json' }).end(body);
    finish();
  }
}
