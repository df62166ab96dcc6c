/**
 * The slot-time trace: for each engine call (check, diff, create, read, update, delete), the time
 * from the call to the answer, cut into the phases the call goes through, one JSON line per call appended to
 * the file that SHIPPING_TRACE_FILE names. Off by default: then no span, no async context and no file, and each
 * hook below returns at its first test.
 *
 * A call's phases are a state machine: `waitFor` enters a phase while the call awaits something and goes back
 * to `own` (the provider's own work) when it settles; a batch enters the phases of its shared work (the lane,
 * the POST, the read-back) for every call it joined. So the phases of a line add up to its total. A line holds
 * only names of this module's vocabulary and numbers: never a key, a URL, a shop or a hook.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { openSync, writeSync } from "node:fs";

/** The variable that names the trace file (appended to; absent or empty: no trace). */
export const TRACE_FILE_VARIABLE = "SHIPPING_TRACE_FILE";

/** The engine calls traced. */
export type TracedOperation = "check" | "diff" | "create" | "read" | "update" | "delete";

/**
 * What a call waits for. `own`: the provider's own work, and any wait no other phase names. `listing`: the
 * shop's listing (shared, once per shop per deployment). `goneAnswer`: the service's answer whether an
 * unlisted id is gone. `batchWindow`: a batch of the shop's creates or deletes, until it is sent (its window,
 * or the shop's other creates it waits for). `lane`: the shop's write lane, behind the writes before it.
 * `recheck`: the listing read again under the lane (a create's plan, a delete's ownership re-check). `post`
 * and `delete`: the POST and DELETE round trips. `readBack`: the read of written ids (ids to hooks, the shop
 * of a shop that listed nothing). `relist`: the listing after a POST whose answer was lost.
 */
export type Phase =
  | "own"
  | "listing"
  | "goneAnswer"
  | "batchWindow"
  | "lane"
  | "recheck"
  | "post"
  | "delete"
  | "readBack"
  | "relist";

/**
 * How a batch came to be sent: every create it waited for came, it was full, its window or the idle time ended,
 * or no run of its shop was in flight (`free`), or the one in flight ended (`afterRun`).
 */
export type FlushReason = "complete" | "full" | "window" | "idle" | "recheck" | "free" | "afterRun";

/** One line of the trace file. */
export interface TraceLine {
  readonly v: 1;
  readonly op: TracedOperation;
  /** When the call came, ms since the epoch. */
  readonly at: number;
  /** From the call to the answer, ms. */
  readonly ms: number;
  readonly ok: boolean;
  /** Ms per phase, in the order first entered; they add up to `ms`. */
  readonly phases: Partial<Record<Phase, number>>;
  /** Of the batches it joined, by their name: items joined and why it was sent (`create`, `createFlush`). */
  readonly batch?: Readonly<Record<string, number | FlushReason>>;
  readonly pid: number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** One engine call being traced. */
class Span {
  readonly #op: TracedOperation;
  readonly #at = Date.now();
  readonly #t0 = performance.now();
  #phase: Phase = "own";
  #since = this.#t0;
  #ended = false;
  readonly #ms = new Map<Phase, number>();
  readonly #batch: Record<string, number | FlushReason> = {};

  constructor(op: TracedOperation) {
    this.#op = op;
  }

  enter(phase: Phase): void {
    if (this.#ended) return;
    const now = performance.now();
    this.#ms.set(this.#phase, (this.#ms.get(this.#phase) ?? 0) + (now - this.#since));
    this.#phase = phase;
    this.#since = now;
  }

  note(name: string, value: number | FlushReason): void {
    if (!this.#ended) this.#batch[name] = value;
  }

  end(ok: boolean): TraceLine {
    this.enter("own");
    this.#ended = true;
    const phases: Partial<Record<Phase, number>> = {};
    let total = 0;
    for (const [phase, ms] of this.#ms) {
      phases[phase] = round(ms);
      total += ms;
    }
    const batch = Object.keys(this.#batch).length > 0 ? { batch: { ...this.#batch } } : {};
    return { v: 1, op: this.#op, at: this.#at, ms: round(total), ok, phases, ...batch, pid: process.pid };
  }
}

/** The calls the running code works for: one call, or every call a batch joined. */
type Spans = readonly Span[];

/** Made by the first trace switched on: until then no async context is kept at all. */
let context: AsyncLocalStorage<Spans> | undefined;

/** The trace of one provider: a span per engine call, a line per answer. */
export class SlotTrace {
  readonly #file: string;
  #fd: number | undefined;
  #broken = false;

  private constructor(file: string) {
    this.#file = file;
    context ??= new AsyncLocalStorage<Spans>();
  }

  /** The trace `env` asks for, or undefined (no trace). */
  static from(env: NodeJS.ProcessEnv): SlotTrace | undefined {
    const file = env[TRACE_FILE_VARIABLE];
    return file === undefined || file.trim() === "" ? undefined : new SlotTrace(file);
  }

  /** Runs the engine call `run` as `op`, and writes its line when it answers. */
  run<T>(op: TracedOperation, run: () => Promise<T>): Promise<T> {
    const span = new Span(op);
    const answered = (context as AsyncLocalStorage<Spans>).run([span], run);
    return answered.then(
      (value) => {
        this.#write(span.end(true));
        return value;
      },
      (error: unknown) => {
        this.#write(span.end(false));
        throw error;
      },
    );
  }

  /** Appends `line`; a trace that cannot be written never fails the call, it says so once and stops. */
  #write(line: TraceLine): void {
    if (this.#broken) return;
    try {
      this.#fd ??= openSync(this.#file, "a");
      writeSync(this.#fd, `${JSON.stringify(line)}\n`);
    } catch (error) {
      this.#broken = true;
      const why = error instanceof Error && "code" in error ? String(error.code) : "an error";
      process.stderr.write(
        `${TRACE_FILE_VARIABLE}: the trace file cannot be written (${why}); tracing stops\n`,
      );
    }
  }
}

/** The calls the running code works for (to hand to a batch), or undefined when nothing is traced. */
export function currentSpans(): Spans | undefined {
  return context?.getStore();
}

/** Runs `run` for every call of `joined` (a batch's callers); with nothing traced, just runs it. */
export function forJoined<T>(joined: readonly (Spans | undefined)[], run: () => T): T {
  if (context === undefined) return run();
  const spans = [...new Set(joined.flatMap((s) => s ?? []))];
  return spans.length === 0 ? run() : context.run(spans, run);
}

/** Enters `phase` for the running calls. */
export function phase(entered: Phase): void {
  for (const span of context?.getStore() ?? []) span.enter(entered);
}

/** Notes, for the running calls, a batch they joined: its size under `name`, its flush reason. */
export function noteBatch(name: string, items: number, reason: FlushReason): void {
  for (const span of context?.getStore() ?? []) {
    span.note(name, items);
    span.note(`${name}Flush`, reason);
  }
}

/**
 * Starts `wait` in the running calls' `phase` (entered first: a batch that `wait` sends at once enters its own
 * phases after it), until it settles; then they are back in `own`.
 */
export function waitFor<T>(entered: Phase, wait: () => Promise<T>): Promise<T> {
  const spans = context?.getStore();
  if (spans === undefined) return wait();
  for (const span of spans) span.enter(entered);
  const back = () => {
    for (const span of spans) span.enter("own");
  };
  return wait().then(
    (value) => {
      back();
      return value;
    },
    (error: unknown) => {
      back();
      throw error;
    },
  );
}
