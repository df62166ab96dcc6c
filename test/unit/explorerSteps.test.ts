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

describe("the explorer's sequences", () => {
  it.each([2, 3, 4, 9, MAX_STEPS])(
    "hold at most maxSteps (%i) steps, start with an add to stack one and end with an operation",
    (maxSteps) => {
      for (const sequence of sample(maxSteps, 7)) {
        expect(sequence.length).toBeLessThanOrEqual(maxSteps);
        expect(sequence[0]).toMatchObject({ kind: "add", stack: "one" });
        expect(["operation", "kill"]).toContain(sequence.at(-1)?.kind);
      }
    },
  );

  it("often pin an entry, give it another target and declare under it, in that order and on one stack", () => {
    let found = 0;
    for (const sequence of sample(MAX_STEPS, 11)) {
      sequence.forEach((step, i) => {
        const [config, add] = [sequence[i + 1], sequence[i + 2]];
        if (step.kind !== "pin" || !step.on || config?.kind !== "config" || add?.kind !== "add") return;
        if (config.stack !== step.stack || config.entry !== step.entry) return;
        if (add.stack !== step.stack || add.shop !== step.entry) return;
        found++;
      });
    }
    // One change in 25 is this triple and a sequence draws up to 10 changes: far more than 1% of sequences hold one.
    expect(found).toBeGreaterThan(SAMPLES / 100);
  });
});
