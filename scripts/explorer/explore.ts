/**
 * The model-based explorer: fast-check generates sequences of steps, each run replays one sequence on a
 * fresh world (empty services, new stacks) and checks every invariant after every step; a failing sequence
 * shrinks to a minimal one, printed as a replayable command line.
 */
import fc from "fast-check";
import type { Step } from "./model";
import { sequenceArbitrary } from "./steps";
import { type StepReport, World, type WorldOptions } from "./world";

/** Options of one exploration. */
interface ExploreOptions extends WorldOptions {
  readonly seed: number;
  /** Sequences to generate (fast-check runs). */
  readonly runs: number;
  /** Longest sequence. */
  readonly maxSteps: number;
  /** Stop generating and shrinking after this long (the best counterexample so far is reported). */
  readonly timeLimitMs?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
  /**
   * Violations to let pass (a triage aid of `npm run explore -- --known`, to look past defects already
   * reported while they are being fixed; never used by the tests).
   */
  readonly known?: RegExp;
}

/** A sequence that broke an invariant. */
interface Counterexample {
  /** The steps that applied, up to the one that broke the invariant: replaying them reproduces it. */
  readonly steps: readonly Step[];
  readonly violations: readonly string[];
}

/** What an exploration did and found. */
export interface ExploreReport {
  readonly seed: number;
  readonly runs: number;
  /** Steps applied (not skipped), over every run, shrinking included. */
  readonly steps: number;
  /** Engine operations run. */
  readonly operations: number;
  /** Operations run again after the CLI and the program lost their gRPC connection with no effect. */
  readonly transportRetries: number;
  readonly durationMs: number;
  /** The shrunk counterexample, when an invariant broke. */
  readonly counterexample?: Counterexample;
  /** Whether the time limit cut the exploration or its shrinking short. */
  readonly interrupted: boolean;
}

/** Replays `steps` on `world` (a fresh run), stopping at the first violation. */
export async function replay(
  world: World,
  steps: readonly Step[],
  log: (line: string) => void = () => {},
  known?: RegExp,
): Promise<{ reports: StepReport[]; counterexample?: Counterexample }> {
  await world.beginRun();
  const reports: StepReport[] = [];
  let keep = false;
  try {
    for (const step of steps) {
      const report = await world.apply(step);
      reports.push(report);
      if (!report.skipped) log(`  ${JSON.stringify(report.step)}${report.note ? ` -> ${report.note}` : ""}`);
      for (const v of report.violations.filter((v) => known?.test(v))) log(`  known: ${v}`);
      const violations = report.violations.filter((v) => !known?.test(v));
      if (violations.length > 0) {
        keep = true;
        const applied = reports.filter((r) => !r.skipped).map((r) => r.step);
        for (const v of violations) log(`  VIOLATION: ${v}`);
        return { reports, counterexample: { steps: applied, violations } };
      }
    }
    return { reports };
  } finally {
    const dir = world.endRun(keep);
    if (keep) log(`  (run folder kept: ${dir})`);
  }
}

/** The command line that replays a counterexample. */
export function replayCommand(steps: readonly Step[]): string {
  return `npm run explore -- --replay '${JSON.stringify(steps)}'`;
}

/** Explores `runs` generated sequences from `seed`; shrinks the first failure. */
export async function explore(options: ExploreOptions): Promise<ExploreReport> {
  const log = options.log ?? (() => {});
  const world = await World.create(options);
  const started = Date.now();
  let steps = 0;
  let operations = 0;
  let run = 0;
  const failures = new WeakMap<readonly Step[], Counterexample>();
  try {
    const property = fc.asyncProperty(sequenceArbitrary(options.maxSteps), async (sequence) => {
      run += 1;
      log(`run ${run} (${sequence.length} steps generated)`);
      const { reports, counterexample } = await replay(world, sequence, log, options.known).catch(
        (error: unknown) => {
          // Not a violation: the explorer's own failure, said here since fast-check only shrinks it.
          log(`  explorer error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          throw error;
        },
      );
      steps += reports.filter((r) => !r.skipped).length;
      operations += reports.filter((r) => r.operation).length;
      if (counterexample !== undefined) {
        failures.set(sequence, counterexample);
        throw new Error(counterexample.violations.join("\n"));
      }
    });
    const result = await fc.check(property, {
      seed: options.seed,
      numRuns: options.runs,
      endOnFailure: false,
      ...(options.timeLimitMs !== undefined ? { interruptAfterTimeLimit: options.timeLimitMs } : {}),
    });
    const failing = result.counterexample?.[0];
    let counterexample = failing !== undefined ? failures.get(failing) : undefined;
    if (failing !== undefined && counterexample === undefined) {
      log("replaying the shrunk counterexample");
      counterexample = (await replay(world, failing, log, options.known)).counterexample;
    }
    return {
      seed: options.seed,
      runs: run,
      steps,
      operations,
      transportRetries: world.transportRetries,
      durationMs: Date.now() - started,
      ...(counterexample !== undefined ? { counterexample } : {}),
      interrupted: result.interrupted,
    };
  } finally {
    await world.close();
  }
}
