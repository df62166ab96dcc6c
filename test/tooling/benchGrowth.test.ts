/** The growth-exponent fit the benchmark prints for goal 3 (linear to 1,000 shops). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exponentBound, fitGrowth } from "../../scripts/bench/growth";

const SEED = 1515;

describe("fitGrowth", () => {
  it("recovers the exponent and coefficient of any exact power law", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 2, maxLength: 6 }),
        (exponent, coefficient, sizes) => {
          const fit = fitGrowth(sizes.map((n) => ({ resources: n, ms: coefficient * n ** exponent })));
          expect(fit?.exponent).toBeCloseTo(exponent, 6);
          expect(Math.log(fit?.coefficient ?? 0)).toBeCloseTo(Math.log(coefficient), 5);
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("sees a quadratic engine cost as 2 and a fixed start-up plus linear work as less than 1", () => {
    const sizes = [300, 900, 3000];
    expect(fitGrowth(sizes.map((n) => ({ resources: n, ms: 0.01 * n * n })))?.exponent).toBeCloseTo(2, 9);
    const withStartUp = fitGrowth([3, 30].map((n) => ({ resources: n, ms: 4000 + 10 * n })));
    expect(withStartUp?.exponent).toBeLessThan(0.1);
  });

  it("gives no fit without two distinct sizes, and ignores points whose logarithm does not exist", () => {
    expect(fitGrowth([{ resources: 300, ms: 10 }])).toBeUndefined();
    expect(
      fitGrowth([
        { resources: 300, ms: 10 },
        { resources: 300, ms: 12 },
      ]),
    ).toBeUndefined();
    const fit = fitGrowth([
      { resources: 0, ms: 5 },
      { resources: 10, ms: 0 },
      { resources: 10, ms: 100 },
      { resources: 100, ms: 1000 },
    ]);
    expect(fit?.points).toBe(2);
    expect(fit?.exponent).toBeCloseTo(1, 9);
  });
});

describe("exponentBound", () => {
  it("is the exponent at which time per resource grows exactly by the ratio over the scale", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 10, noNaN: true }),
        fc.integer({ min: 2, max: 100 }),
        (ratio, scale) => {
          const k = exponentBound(ratio, scale);
          // time per resource ~ n^(k-1): going from n to scale x n multiplies it by scale^(k-1).
          expect(scale ** (k - 1)).toBeCloseTo(ratio, 9);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
    expect(exponentBound(1.25)).toBeCloseTo(1.0969, 4);
  });
});
