import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiSettings } from '../config/settings';
import { SettingsError } from '../config/settings';

export type Scope = 'read' | 'write';

/** Who is calling: a configured API key, or anonymous (loopback, or when the operator allows it). */
export interface Principal {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly anonymous: boolean;
}

interface ApiKey {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly digest: Buffer;
}

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/** Parses `NAME:SCOPE:SECRET,…` (SCOPE read or write; write includes read). Throws SettingsError on a bad entry. */
export function parseApiKeys(value: string | undefined): ApiKey[] {
  if (!value) return [];
  return value.split(',').map((entry, index) => {
    const [name, scope, ...rest] = entry.trim().split(':');
    const secret = rest.join(':');
    if (!name || (scope !== 'read' && scope !== 'write') || secret.length < 16) {
      throw new SettingsError(
        `CITEGRAPH_API_KEYS entry ${index + 1} must be NAME:read|write:SECRET with a secret of at least 16 characters`,
      );
    }
    return { name, scopes: scope === 'write' ? ['read', 'write'] : ['read'], digest: digest(secret) };
  });
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Decides who a request is from, from its `Authorization: Bearer …` or `X-API-Key` header. */
export class AccessControl {
  private readonly keys: ApiKey[];

  constructor(private readonly settings: ApiSettings) {
    this.keys = parseApiKeys(settings.apiKeys);
  }

  /** Refuses to serve a non-loopback address to anyone without keys, unless the operator allows anonymous use. */
  checkListen(host: string): void {
    if (this.keys.length === 0 && !isLoopback(host) && !this.settings.allowAnonymous) {
      throw new SettingsError(
        `CITEGRAPH_HOST=${host} is not a loopback address: set CITEGRAPH_API_KEYS, or CITEGRAPH_ALLOW_ANONYMOUS=true to serve it without keys`,
      );
    }
  }

  get keysConfigured(): boolean {
    return this.keys.length > 0;
  }

  /** The principal of a request, or null when it needs a key it did not give (or gave a wrong one). */
  identify(headers: Record<string, string | string[] | undefined>): Principal | null {
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const bearer = /^Bearer\s+(.+)$/i.exec(header('authorization') ?? '')?.[1]?.trim();
    const secret = bearer ?? header('x-api-key')?.trim();
    if (secret) {
      const given = digest(secret);
      const key = this.keys.find((candidate) => timingSafeEqual(candidate.digest, given));
      return key ? { name: key.name, scopes: key.scopes, anonymous: false } : null;
    }
    if (this.keys.length > 0) return null;
    // Without keys every caller is anonymous with full access (loopback, or allowed by the operator).
    return { name: 'anonymous', scopes: ['read', 'write'], anonymous: true };
  }
}

/** A token bucket per caller: `perMinute` requests a minute, with bursts of up to a tenth of that. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;
  private readonly perMs: number;

  constructor(
    perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.capacity = Math.max(1, Math.ceil(perMinute / 10));
    this.perMs = perMinute / 60_000;
  }

  /** Takes one token; returns 0 when allowed, else the seconds until a token is there. */
  take(caller: string): number {
    const now = this.now();
    const bucket = this.buckets.get(caller) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(caller, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
  }

  /** Buckets that have filled up again carry no state worth keeping. */
  private forgetFull(now: number): void {
    for (const [caller, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.capacity) this.buckets.delete(caller);
    }
  }
}
