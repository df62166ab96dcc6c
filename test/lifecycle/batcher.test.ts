import { describe, expect, it, vi } from "vitest";
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

  describe("while in flight (deletes): no item waits for one that may not come", () => {
    /** A batcher whose runs end only when the test says, with every run's items in order. */
    function heldBatcher() {
      const runs: string[] = [];
      const release: Array<(fail: boolean) => void> = [];
      const batcher = new Batcher<string, number, number>(
        (group) => group,
        (group, items) => {
          runs.push(`${group}:${items.join(";")}`);
          return new Promise((resolve, reject) =>
            release.push((fail) =>
              fail ? reject(new Error(`${group} failed`)) : resolve(items.map((value) => ({ value }))),
            ),
          );
        },
        { whileInFlight: true },
      );
      return { runs, release, batcher };
    }

    it("sends a group's first items at once, and joins what comes while they run into one run after them", async () => {
      const { runs, release, batcher } = heldBatcher();
      const first = Promise.all([batcher.add("shop-a", 1), batcher.add("shop-a", 4)]);
      await vi.waitFor(() => expect(runs).toEqual(["shop-a:1;4"]), { timeout: 1_000, interval: 1 });
      const later = [batcher.add("shop-a", 2), batcher.add("shop-a", 3)];
      const otherShop = batcher.add("shop-b", 9);
      await vi.waitFor(() => expect(runs).toEqual(["shop-a:1;4", "shop-b:9"]), {
        timeout: 1_000,
        interval: 1,
      });
      release[0]?.(false);
      expect(await first).toEqual([1, 4]);
      expect(runs).toEqual(["shop-a:1;4", "shop-b:9", "shop-a:2;3"]);
      release[1]?.(false);
      release[2]?.(false);
      expect(await Promise.all([...later, otherShop])).toEqual([2, 3, 9]);
    });

    it("sends the waiting batch after a run that failed, whose callers get its error", async () => {
      const { runs, release, batcher } = heldBatcher();
      const first = batcher.add("shop-a", 1);
      await vi.waitFor(() => expect(runs).toEqual(["shop-a:1"]), { timeout: 1_000, interval: 1 });
      const second = batcher.add("shop-a", 2);
      release[0]?.(true);
      await expect(first).rejects.toThrow("shop-a failed");
      expect(runs).toEqual(["shop-a:1", "shop-a:2"]);
      release[1]?.(false);
      expect(await second).toBe(2);
    });
    it("answers the callers of a run that throws at once with its error, and keeps the shop's later items going", async () => {
      const runs: string[] = [];
      const batcher = new Batcher<string, number, number>(
        (group) => group,
        (group, items) => {
          runs.push(`${group}:${items.join(";")}`);
          if (items.includes(1)) throw new Error("refused at once");
          return Promise.resolve(items.map((value) => ({ value })));
        },
        { whileInFlight: true },
      );
      await expect(batcher.add("shop-a", 1)).rejects.toThrow("refused at once");
      expect(await batcher.add("shop-a", 2)).toBe(2);
      expect(runs).toEqual(["shop-a:1", "shop-a:2"]);
    });

    it("holds a later item until every run of its shop has ended, also a full batch sent beside another", async () => {
      vi.useFakeTimers();
      try {
        const runs: string[] = [];
        const release: Array<() => void> = [];
        const batcher = new Batcher<string, number, number>(
          (group) => group,
          (group, items) => {
            runs.push(`${group}:${items.join(";")}`);
            return new Promise((resolve) => release.push(() => resolve(items.map((value) => ({ value })))));
          },
          { whileInFlight: true, maxSize: 2 },
        );
        const first = batcher.add("shop-a", 1);
        await vi.advanceTimersByTimeAsync(1);
        const full = [batcher.add("shop-a", 2), batcher.add("shop-a", 3)];
        expect(runs).toEqual(["shop-a:1", "shop-a:2;3"]);
        release[0]?.();
        await first;
        const later = batcher.add("shop-a", 4);
        await vi.advanceTimersByTimeAsync(100);
        expect(runs).toEqual(["shop-a:1", "shop-a:2;3"]); // the full batch still runs
        release[1]?.();
        expect(await Promise.all(full)).toEqual([2, 3]);
        await vi.advanceTimersByTimeAsync(1);
        expect(runs).toEqual(["shop-a:1", "shop-a:2;3", "shop-a:4"]);
        release[2]?.();
        expect(await later).toBe(4);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
