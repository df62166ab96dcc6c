import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Step } from "../../scripts/explorer/model";
import { sequenceArbitrary } from "../../scripts/explorer/steps";

/** The explorer's generator, sampled (no engine): the shape of what `npm test` and `npm run explore` run. */
const SAMPLES = 2_000;
const MAX_STEPS = 15;

function sample(maxSteps: number, seed: number): Step[][] {
  return fc.sample(sequenceArbitrary(maxSteps), { seed, numRuns: SAMPLES });
}

/** How many of `sequences` hold a step `matching` at some index `i` (given the whole sequence). */
function holding(sequences: readonly Step[][], matching: (sequence: Step[], i: number) => boolean): number {
  return sequences.filter((sequence) => sequence.some((_, i) => matching(sequence, i))).length;
}

describe("the explorer's sequences", () => {
  it.each([2, 3, 4, 9, MAX_STEPS])(
    "hold at most maxSteps (%i) steps, start with an add to stack one and end with an operation",
    (maxSteps) => {
      for (const sequence of sample(maxSteps, 7)) {
        expect(sequence.length).toBeLessThanOrEqual(maxSteps);
        expect(sequence[0]).toMatchObject({ kind: "add", stack: "one" });
        expect(["operation", "targeted", "kill"]).toContain(sequence.at(-1)?.kind);
      }
    },
  );

  it("often pin an entry, give it another target and declare under it, in that order and on one stack", () => {
    const found = holding(sample(MAX_STEPS, 11), (sequence, i) => {
      const [step, config, add] = [sequence[i], sequence[i + 1], sequence[i + 2]];
      if (step?.kind !== "pin" || !step.on || config?.kind !== "config" || add?.kind !== "add") return false;
      if (config.stack !== step.stack || config.entry !== step.entry) return false;
      return add.stack === step.stack && add.shop === step.entry;
    });
    // One change in 26 is this triple and a sequence draws up to 10 changes: far more than 1% of sequences hold one.
    expect(found).toBeGreaterThan(SAMPLES / 100);
  });

  it("often hold a targeted operation, and a rename without an alias rolled out with up --target <new name>", () => {
    const sequences = sample(MAX_STEPS, 13);
    expect(holding(sequences, (s, i) => s[i]?.kind === "targeted")).toBeGreaterThan(SAMPLES / 4);
    const rollouts = holding(sequences, (sequence, i) => {
      const [rename, up] = [sequence[i], sequence[i + 1]];
      return (
        rename?.kind === "rename" &&
        !rename.alias &&
        up?.kind === "targeted" &&
        up.op === "up" &&
        up.mode !== "exclude" &&
        up.name === rename.to
      );
    });
    expect(rollouts).toBeGreaterThan(SAMPLES / 100);
  });

  it("often rewrite a program to read secret hooks from stack config before an up, and draw the refused URL", () => {
    const sequences = sample(MAX_STEPS, 17);
    const configThenUp = holding(sequences, (sequence, i) => {
      const step = sequence[i];
      if (step?.kind !== "shape" || step.shape !== "config") return false;
      return sequence
        .slice(i + 1)
        .some(
          (s) => (s.kind === "operation" || s.kind === "targeted") && s.op === "up" && s.stack === step.stack,
        );
    });
    expect(configThenUp).toBeGreaterThan(SAMPLES / 20);
    const refused = holding(sequences, (s, i) => {
      const step = s[i];
      return (step?.kind === "add" || step?.kind === "setUrl") && step.url === 3;
    });
    expect(refused).toBeGreaterThan(SAMPLES / 100);
  });

  it("arm each fault between a write and its read-back", () => {
    const faults = new Set(
      sample(MAX_STEPS, 19)
        .flat()
        .flatMap((s) => (s.kind === "fault" ? [s.fault] : [])),
    );
    for (const fault of ["500-after-post-once", "500-after-post", "lost-post-then-500"] as const)
      expect(faults).toContain(fault);
  });
});
