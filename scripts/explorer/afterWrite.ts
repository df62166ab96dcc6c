/**
 * Faults that wait for a write: held back until the first request of a method (POST) arrives at a simulator,
 * then added to its fault list, so that the POST succeeds and the GET that follows (the read-back of the
 * written ids, or the listing that confirms a write whose answer was lost) fails.
 *
 * The simulator's faults match a method only, and match from the first request on (simulator/README.md,
 * "Faults"): no spec says "the next GET after a POST". The switch asked of the simulator is a field
 * `after: "<METHOD>"` on every fault: dormant (not matched, its `count` untouched) until a request of that
 * method has arrived, then matched as usual from the next request on. `armAfter` uses it when the simulator
 * accepts it; until then it holds the fault here and adds it when `FaultList.plan` first sees the method,
 * by wrapping the simulator's `FaultList` in this process (the explorer's simulators run in it).
 */
import { type FaultSpec, InvalidInputError, type RunningSimulator } from "../../simulator";
import { FaultList } from "../../simulator/faults";

interface Held {
  readonly after: string;
  readonly specs: readonly FaultSpec[];
}

/** Faults held back per simulator fault list. */
const held = new WeakMap<FaultList, Held[]>();
/** Set while {@link faultListOf} asks a simulator for its fault list. */
let capturing: ((list: FaultList) => void) | undefined;
let wrapped = false;

/** Wraps `FaultList` once: add (to find a simulator's list), plan (to wake held faults) and clear. */
function wrap(): void {
  if (wrapped) return;
  const proto = FaultList.prototype;
  const { add, plan, clear } = proto;
  if (typeof add !== "function" || typeof plan !== "function" || typeof clear !== "function")
    throw new Error(
      "simulator/faults.ts no longer has FaultList add/plan/clear: update scripts/explorer/afterWrite.ts",
    );
  proto.add = function (this: FaultList, spec: FaultSpec): void {
    if (capturing !== undefined) capturing(this);
    else add.call(this, spec);
  };
  proto.plan = function (this: FaultList, method: string) {
    const decided = plan.call(this, method);
    const waiting = held.get(this) ?? [];
    const woken = waiting.filter((h) => h.after === method);
    if (woken.length > 0) {
      held.set(
        this,
        waiting.filter((h) => h.after !== method),
      );
      for (const h of woken) for (const spec of h.specs) add.call(this, spec);
    }
    return decided;
  };
  proto.clear = function (this: FaultList): void {
    held.delete(this);
    clear.call(this);
  };
  wrapped = true;
}

/** The fault list of `sim` (found by adding a harmless fault while capturing, which adds nothing). */
function faultListOf(sim: RunningSimulator): FaultList {
  wrap();
  let found: FaultList | undefined;
  capturing = (list) => {
    found = list;
  };
  try {
    sim.addFault({ kind: "latency", ms: 1 });
  } finally {
    capturing = undefined;
  }
  if (found === undefined) throw new Error("could not find the simulator's fault list");
  return found;
}

/** Whether the simulator takes `after` itself (asked once per simulator). */
const native = new WeakMap<RunningSimulator, boolean>();

function acceptsAfter(sim: RunningSimulator): boolean {
  let known = native.get(sim);
  if (known === undefined) {
    try {
      // A fault that never wakes (the API has no PATCH; at worst 1 ms once): it tells whether `after` is known.
      sim.addFault({ kind: "latency", ms: 1, count: 1, after: "PATCH" } as unknown as FaultSpec);
      known = true;
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      known = false;
    }
    native.set(sim, known);
  }
  return known;
}

/**
 * Arms `specs` on `sim` to start once a request of method `after` has arrived (that request itself is not
 * affected). Cleared, like every fault, by `sim.clearFaults()`.
 */
export function armAfter(sim: RunningSimulator, after: string, specs: readonly FaultSpec[]): void {
  const method = after.toUpperCase();
  if (acceptsAfter(sim)) {
    for (const spec of specs) sim.addFault({ ...spec, after: method } as unknown as FaultSpec);
    return;
  }
  const list = faultListOf(sim);
  held.set(list, [...(held.get(list) ?? []), { after: method, specs }]);
}
