/**
 * Sliding-window rate limiting per key and per method. A rejected request counts as a request (as in
 * production), so only the most recent `limit` timestamps of a bucket matter: the next request is allowed
 * once the oldest of them has left the window.
 */
import { PRODUCTION_RATE_LIMIT } from "./constants";
import type { RateLimitSettings, Switches } from "./types";

/** The verdict for one request. */
interface RateDecision {
  allowed: boolean;
  /** Limit of this method in the window. */
  limit: number;
  /** Seconds until a slot frees (at least 1), meaningful when not allowed. */
  retryAfterSeconds: number;
}

/** Fixed-size ring of timestamps (ms), oldest first when full. */
class Bucket {
  readonly #times: number[] = [];
  #next = 0;
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  /** The oldest of the last `size` timestamps, or undefined while fewer were recorded. */
  oldest(): number | undefined {
    return this.#times.length < this.#size ? undefined : this.#times[this.#next];
  }

  push(now: number): void {
    if (this.#times.length < this.#size) this.#times.push(now);
    else {
      this.#times[this.#next] = now;
      this.#next = (this.#next + 1) % this.#size;
    }
  }
}

/** Resolve the `rateLimit` switch into settings, or undefined when off. */
export function rateLimitSettings(setting: Switches["rateLimit"]): RateLimitSettings | undefined {
  if (setting === "off") return undefined;
  return setting === "production" ? { ...PRODUCTION_RATE_LIMIT } : setting;
}

/** Per key + method sliding windows. */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  /** Record a request of `key` with `method` at `now` (ms) and decide whether it may proceed. */
  check(settings: RateLimitSettings, key: string, method: string, now: number): RateDecision {
    const limit = method === "POST" ? settings.post : method === "DELETE" ? settings.delete : settings.get;
    if (limit === 0) return { allowed: false, limit, retryAfterSeconds: Math.ceil(settings.windowMs / 1000) };
    const id = `${method}\u0000${key}`;
    let bucket = this.#buckets.get(id);
    if (bucket === undefined) {
      bucket = new Bucket(limit);
      this.#buckets.set(id, bucket);
    }
    const oldest = bucket.oldest();
    const allowed = oldest === undefined || oldest <= now - settings.windowMs;
    bucket.push(now);
    const freeAt = (bucket.oldest() ?? now) + settings.windowMs;
    return { allowed, limit, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
  }

  /** Forget every window (on reset, or when the settings change). */
  clear(): void {
    this.#buckets.clear();
  }
}
