/**
 * Programmable faults for API requests. Faults are walked in the order added; each one whose `method`
 * matches the request is "matched": its `count` decrements (it disappears at 0). A matched latency fault
 * adds its delay and the walk goes on; the first matched fault of another kind that fires ends the walk and
 * decides the request's fate. A status fault with `rate` fires on that share of its matched requests,
 * spread evenly and deterministically (rate 0.5: the 1st, 3rd, 5th...).
 */
import { CONTROL_PREFIX, MAX_FAULTS, MAX_TIMER_MS } from "./constants";
import { InvalidInputError } from "./schemas";
import type { FaultSpec } from "./types";

/** An active fault and its bookkeeping, as listed by `GET /__sim/faults`. */
export interface ActiveFault {
  spec: FaultSpec;
  /** Matched requests left before the fault disappears; absent = until cleared. */
  remaining?: number;
  /** Requests matched so far. */
  matched: number;
  /** Dormant until a request of this method arrives (its `after`). */
  waitingFor?: string;
}

/** Which API request a fault is asked about: its method and path (without the query). */
interface FaultedRequest {
  readonly method: string;
  readonly path: string;
}

/** Whether `path` asks for an id list (`/webhook_subscriptions/1;2`) rather than the listing. */
function asksForIds(path: string): boolean {
  return /\/webhook_subscriptions\/[^/]+$/.test(path);
}

/** What to do with one request. */
interface FaultPlan {
  /** Total added latency in ms (0 = none), at most MAX_TIMER_MS. */
  latencyMs: number;
  /** The terminal fault to apply after the latency, if any. */
  terminal?: Exclude<FaultSpec, { kind: "latency" }>;
  /** Kind to record in the request log (the terminal fault's, else "latency" when delayed). */
  recorded?: FaultSpec["kind"];
}

function fires(fault: ActiveFault): boolean {
  if (fault.spec.kind !== "status" || fault.spec.rate === undefined) return true;
  const n = fault.matched;
  const rate = fault.spec.rate;
  return Math.ceil((n + 1) * rate - 1e-9) > Math.ceil(n * rate - 1e-9);
}

/** The ordered list of active faults. */
export class FaultList {
  #faults: ActiveFault[] = [];

  /** Append a (validated) fault; throws InvalidInputError when MAX_FAULTS are active already. */
  add(spec: FaultSpec): void {
    if (this.#faults.length >= MAX_FAULTS) {
      throw new InvalidInputError(
        `at most ${MAX_FAULTS} faults are active at once; clear them (DELETE ${CONTROL_PREFIX}faults) or give faults a count`,
      );
    }
    const fault: ActiveFault = { spec: { ...spec }, matched: 0 };
    if (spec.count !== undefined) fault.remaining = spec.count;
    if (spec.after !== undefined) fault.waitingFor = spec.after.toUpperCase();
    this.#faults.push(fault);
  }

  /** Remove every fault. */
  clear(): void {
    this.#faults = [];
  }

  /** Copies of the active faults, in order. */
  list(): ActiveFault[] {
    return this.#faults.map((f) => ({ ...f, spec: { ...f.spec } }));
  }

  /** Decide the faults for a request (a method alone: any path), consuming counts. */
  plan(asked: FaultedRequest | string): FaultPlan {
    const request = typeof asked === "string" ? { method: asked, path: "" } : asked;
    const plan: FaultPlan = { latencyMs: 0 };
    if (this.#faults.length === 0) return plan;
    for (const fault of this.#faults) {
      if (fault.waitingFor !== undefined) continue;
      const { method, request: kind } = fault.spec;
      if (method !== undefined && method.toUpperCase() !== request.method) continue;
      if (kind !== undefined && (kind === "ids") !== asksForIds(request.path)) continue;
      const fired = fires(fault);
      fault.matched += 1;
      if (fault.remaining !== undefined) fault.remaining -= 1;
      if (!fired) continue;
      if (fault.spec.kind === "latency") {
        // Capped: a sum past what a timer can hold would overflow to a 1 ms delay.
        plan.latencyMs = Math.min(MAX_TIMER_MS, plan.latencyMs + fault.spec.ms);
        plan.recorded = "latency";
        continue;
      }
      plan.terminal = fault.spec;
      plan.recorded = fault.spec.kind;
      break;
    }
    this.#faults = this.#faults.filter((f) => f.remaining === undefined || f.remaining > 0);
    // A dormant fault wakes on its method's request, and applies from the next request on.
    for (const fault of this.#faults) if (fault.waitingFor === request.method) delete fault.waitingFor;
    return plan;
  }
}
