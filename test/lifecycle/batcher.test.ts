import { describe, expect, it } from "vitest";
import { Batcher } from "../../provider/writes/batcher";

describe("Batcher", () => {
  it("gives each caller its own item's outcome: a value, or the error that is its alone", async () => {
    const runs: string[][] = [];
    const batcher = new Batcher<string, string, string>(
      (group) => group,
      async (_group, items) => {
        runs.push([...items]);
        return items.map((item) =>
          item === "bad" ? { error: new Error(`refused ${item}`) } : { value: item },
        );
      },
    );
    const outcomes = await Promise.allSettled(["a", "bad", "c"].map((item) => batcher.add("shop", item)));
    expect(outcomes).toEqual([
      { status: "fulfilled", value: "a" },
      { status: "rejected", reason: new Error("refused bad") },
      { status: "fulfilled", value: "c" },
    ]);
    expect(runs).toEqual([["a", "bad", "c"]]);
  });

  it("rejects every caller when a run returns fewer results than items (never leaves one waiting)", async () => {
    const batcher = new Batcher<string, number, number>(
      (g) => g,
      async () => [{ value: 1 }],
    );
    const outcomes = await Promise.allSettled([batcher.add("g", 1), batcher.add("g", 2)]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected"]);
  });
});
