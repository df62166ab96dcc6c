/**
 * Programmable faults for API requests. Faults are walked in the order added; each one whose `method`
 * matches the request is "matched": its `count` decrements (it disappears at 0). A matched latency fault
 * adds its delay and the walk goes on; the first matched fault of another kind that fires ends the walk and
 * decides the request's fate. A status fault with `rate` fires on that share of its matched requests,
 * spread evenly and deterministically (rate 0.5: the 1st, 3rd, 5th...).
 */
import { MAX_TIMER_MS } from "./constants";
import type { FaultSpec } from "./types";

/** An active fault and its bookkeeping, as listed by `GET /__sim/faults`. */
export interface ActiveFault {
  spec: FaultSpec;
  /** Matched requests left before the fault disappears; absent = until cleared. */
  remaining?: number;
  /** Requests matched so far. */
  matched: number;
}

/** What to do with one request. */
export interface FaultPlan {
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
  private faults: ActiveFault[] = [];

  /** Append a (validated) fault. */
  add(spec: FaultSpec): void {
    const fault: ActiveFault = { spec: { ...spec }, matched: 0 };
    if (spec.count !== undefined) fault.remaining = spec.count;
    this.faults.push(fault);
  }

  /** Remove every fault. */
  clear(): void {
    this.faults = [];
  }

  /** Copies of the active faults, in order. */
  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f, spec: { ...f.spec } }));
  }

  /** Decide the faults for a request with `method`, consuming counts. */
  plan(method: string): FaultPlan {
    const plan: FaultPlan = { latencyMs: 0 };
    if (this.faults.length === 0) return plan;
    for (const fault of this.faults) {
      const wanted = fault.spec.method;
      if (wanted !== undefined && wanted.toUpperCase() !== method) continue;
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
    this.faults = this.faults.filter((f) => f.remaining === undefined || f.remaining > 0);
    return plan;
  }
}
