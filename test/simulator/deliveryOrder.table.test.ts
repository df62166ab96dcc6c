/** The order an event's deliveries go out in (`order`, `orderSeed`): in order, reversed, or a seeded shuffle. */
import { describe, expect, it } from "vitest";
import { deliveryOrder } from "../../simulator/deliveryOrder";

describe("deliveryOrder", () => {
  it.each<[number, "in-order" | "reverse" | "shuffled", number | undefined, number[]]>([
    [0, "in-order", undefined, []],
    [1, "reverse", undefined, [0]],
    [4, "in-order", undefined, [0, 1, 2, 3]],
    [4, "reverse", undefined, [3, 2, 1, 0]],
    [5, "shuffled", 1, deliveryOrder(5, "shuffled")],
  ])("%i deliveries %s (seed %s): %j", (count, order, seed, expected) => {
    expect(deliveryOrder(count, order, seed)).toEqual(expected);
  });

  it("shuffles every count into a permutation, the same for the same seed, and not always in order", () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 50; seed += 1) {
      const order = deliveryOrder(6, "shuffled", seed);
      expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
      expect(deliveryOrder(6, "shuffled", seed)).toEqual(order);
      seen.add(order.join());
    }
    expect(seen.size).toBeGreaterThan(40);
    expect(seen.has("0,1,2,3,4,5")).toBe(false);
  });
});
