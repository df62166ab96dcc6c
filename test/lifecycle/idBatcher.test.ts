import { describe, expect, it } from "vitest";
import { IdBatcher, MAX_IDS_PER_REQUEST } from "../../provider/writes/idBatcher";

describe("IdBatcher", () => {
  it("joins ids of one group that arrive together into one call, and keeps groups apart", async () => {
    const calls: string[] = [];
    const batcher = new IdBatcher<string, string>(
      (group) => group,
      async (group, ids) => {
        calls.push(`${group}:${ids.join(";")}`);
        return new Map(ids.filter((id) => id !== 3).map((id) => [id, `${group}-${id}`]));
      },
    );
    const results = await Promise.all([
      batcher.load("a", 1),
      batcher.load("a", 2),
      batcher.load("b", 1),
      batcher.load("a", 3),
      batcher.load("a", 1),
    ]);
    expect(results).toEqual(["a-1", "a-2", "b-1", undefined, "a-1"]);
    expect(calls.sort()).toEqual(["a:1;2;3", "b:1"]);
  });

  it("rejects every waiter of a failed batch with the error", async () => {
    const batcher = new IdBatcher<string, string>(
      (g) => g,
      async () => {
        throw new Error("boom");
      },
    );
    const outcomes = await Promise.allSettled([batcher.load("a", 1), batcher.load("a", 2)]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  });

  it(`sends a full batch of ${MAX_IDS_PER_REQUEST} ids at once and starts a new one`, async () => {
    const sizes: number[] = [];
    const batcher = new IdBatcher<string, number>(
      (g) => g,
      async (_g, ids) => {
        sizes.push(ids.length);
        return new Map(ids.map((id) => [id, id]));
      },
    );
    const ids = Array.from({ length: MAX_IDS_PER_REQUEST + 1 }, (_, i) => i + 1);
    expect(await Promise.all(ids.map((id) => batcher.load("a", id)))).toEqual(ids);
    expect(sizes).toEqual([MAX_IDS_PER_REQUEST, 1]);
  });
});
