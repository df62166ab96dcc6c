import { currentSpans, type FlushReason, forJoined, noteBatch, phase } from "../operations/trace";

/**
 * How long a batch waits for more items of the same group before its request is sent, in ms. 25 ms catches
 * the calls that the engine starts a few checkpoint writes apart (measured: destroy of 10 shops x 3 hooks
 * went from 54 to 42 API calls versus 5 ms); one shared call saves far more than that at API latency.
 */
export const BATCH_WINDOW_MS = 25;
/** Most items joined into one request; the API's own limit is not shown. */
export const MAX_ITEMS_PER_REQUEST = 50;

/** One item's outcome in a batch: its value, or the error that is its alone. */
export type ItemResult<R> = { readonly value: R } | { readonly error: unknown };

interface Waiter<T, R> {
  readonly item: T;
  /** The traced calls that added it (operations/trace.ts), when tracing is on. */
  readonly spans: ReturnType<typeof currentSpans>;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

interface Batch<G, T, R> {
  readonly group: G;
  readonly waiters: Waiter<T, R>[];
  readonly timer: NodeJS.Timeout | undefined;
}

/** How a {@link Batcher} groups and sizes its batches. */
export interface BatcherOptions<G, T> {
  /** Wait for more items this long, in ms, from the first (default {@link BATCH_WINDOW_MS}); per group. */
  readonly windowMs?: number | ((group: G) => number);
  /**
   * Instead of a window: a group's batch is sent at once when no run of the group is in flight (with the items
   * that arrive in the same turn of the event loop), and items that arrive while one is join the next batch, sent
   * when it settles. No item waits for another that may not come; an item joins only what it would have waited
   * for anyway (a run of its group, in a lane of one at a time).
   */
  readonly whileInFlight?: boolean;
  /**
   * Sends every waiting batch when no item of any group was added for this long, in ms: when the callers
   * stopped coming (the engine runs few steps at once), waiting for more only delays. Default: no such rule.
   */
  readonly idleMs?: number;
  /** Whether a batch has every item it waits for: it is sent at once. */
  readonly complete?: (group: G, items: readonly T[]) => boolean;
  /** A batch this size is sent at once (default {@link MAX_ITEMS_PER_REQUEST}). */
  readonly maxSize?: number;
  /** The size of a batch (default: its number of items). */
  readonly sizeOf?: (items: readonly T[]) => number;
  /** The name its batches are noted under in the slot-time trace (operations/trace.ts); none: not noted. */
  readonly traceAs?: string;
}

/**
 * Coalesces calls that arrive within the window for the same group (a shop) into one run with all their
 * items. The engine calls the provider once per resource and in parallel, so the reads, creates or deletes
 * of a shop's hooks become one request instead of one per hook. A failed run rejects every caller with its
 * error; a run may also fail single items.
 */
export class Batcher<G, T, R> {
  readonly #pending = new Map<string, Batch<G, T, R>>();
  readonly #keyOf: (group: G) => string;
  readonly #run: (group: G, items: readonly T[]) => Promise<ItemResult<R>[]>;
  readonly #windowMs: (group: G) => number;
  readonly #complete: (group: G, items: readonly T[]) => boolean;
  readonly #maxSize: number;
  readonly #idleMs: number | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  readonly #sizeOf: (items: readonly T[]) => number;
  readonly #traceAs: string | undefined;
  readonly #whileInFlight: boolean;
  /** By group key, how many of its runs are in flight (a full batch may start beside another). */
  readonly #inFlight = new Map<string, number>();

  constructor(
    keyOf: (group: G) => string,
    run: (group: G, items: readonly T[]) => Promise<ItemResult<R>[]>,
    options: BatcherOptions<G, T> = {},
  ) {
    this.#keyOf = keyOf;
    this.#run = run;
    const windowMs = options.windowMs ?? BATCH_WINDOW_MS;
    this.#windowMs = typeof windowMs === "number" ? () => windowMs : windowMs;
    this.#complete = options.complete ?? (() => false);
    this.#idleMs = options.idleMs;
    this.#maxSize = options.maxSize ?? MAX_ITEMS_PER_REQUEST;
    this.#sizeOf = options.sizeOf ?? ((items) => items.length);
    this.#traceAs = options.traceAs;
    this.#whileInFlight = options.whileInFlight === true;
  }

  /** Resolves with this item's result once its batch has run. */
  add(group: G, item: T): Promise<R> {
    const key = this.#keyOf(group);
    let batch = this.#pending.get(key);
    if (batch === undefined) {
      batch = {
        group,
        waiters: [],
        timer: this.#timerOf(key, group),
      };
      this.#pending.set(key, batch);
    }
    const added = batch;
    // Waiting for the group's run in flight is waiting for the shop's lane: traced as such.
    if (this.#runsInFlight(key) > 0) phase("lane");
    const spans = currentSpans();
    const result = new Promise<R>((resolve, reject) => added.waiters.push({ item, spans, resolve, reject }));
    const items = added.waiters.map((w) => w.item);
    if (this.#sizeOf(items) >= this.#maxSize) this.#flush(key, "full");
    else if (this.#complete(added.group, items)) this.#flush(key, "complete");
    else this.#restartIdleTimer();
    return result;
  }

  /**
   * When a new batch of the group goes by itself: at the end of its window; under `whileInFlight`, at once (on
   * the next turn of the event loop, so that the calls that arrive together join it) when no run of the group is
   * in flight, else when that run settles.
   */
  #timerOf(key: string, group: G): NodeJS.Timeout | undefined {
    if (!this.#whileInFlight) return setTimeout(() => this.#flush(key, "window"), this.#windowMs(group));
    return this.#runsInFlight(key) > 0 ? undefined : setTimeout(() => this.#flush(key, "free"), 0);
  }

  /** How many runs of the group are in flight (counted under `whileInFlight` only). */
  #runsInFlight(key: string): number {
    return this.#inFlight.get(key) ?? 0;
  }

  /** Sends the group's waiting batch now if it has become complete (what it waits for changed). */
  recheck(group: G): void {
    const key = this.#keyOf(group);
    const batch = this.#pending.get(key);
    if (batch === undefined) return;
    if (
      this.#complete(
        batch.group,
        batch.waiters.map((w) => w.item),
      )
    )
      this.#flush(key, "recheck");
  }

  #restartIdleTimer(): void {
    if (this.#idleMs === undefined) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      for (const key of [...this.#pending.keys()]) this.#flush(key, "idle");
    }, this.#idleMs);
  }

  #flush(key: string, reason: FlushReason): void {
    const batch = this.#pending.get(key);
    if (batch === undefined) return;
    this.#pending.delete(key);
    clearTimeout(batch.timer);
    const { waiters } = batch;
    const items = waiters.map((w) => w.item);
    if (this.#whileInFlight) this.#inFlight.set(key, this.#runsInFlight(key) + 1);
    // Traced: the run works for every call it joined, which enter its phases (the lane, the POST) together.
    // A run that throws at once fails its callers like one that rejects (and never leaves the group in flight).
    const run = (): Promise<ItemResult<R>[]> => {
      try {
        if (this.#traceAs !== undefined) noteBatch(this.#traceAs, this.#sizeOf(items), reason);
        return this.#run(batch.group, items);
      } catch (error) {
        return Promise.reject(error);
      }
    };
    forJoined(
      waiters.map((w) => w.spans),
      run,
    )
      .finally(() => this.#settled(key))
      .then(
        (results) => {
          waiters.forEach((waiter, i) => {
            const result = results[i];
            if (result === undefined) waiter.reject(new Error("internal error: a batch returned no result"));
            else if ("error" in result) waiter.reject(result.error);
            else waiter.resolve(result.value);
          });
        },
        (error: unknown) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      );
  }

  /** Under `whileInFlight`: the group's run settled, so the batch that waited for it goes. */
  #settled(key: string): void {
    if (!this.#whileInFlight) return;
    const left = this.#runsInFlight(key) - 1;
    if (left > 0) {
      this.#inFlight.set(key, left);
      return;
    }
    this.#inFlight.delete(key);
    if (this.#pending.has(key)) this.#flush(key, "afterRun");
  }
}
