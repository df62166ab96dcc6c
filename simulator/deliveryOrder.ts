/**
 * Late and out-of-order delivery, asked per event (`delayMs`, `order`, `orderSeed`; `trigger --delay-ms
 * --order --order-seed`): the order in which an event's deliveries go out, and how long they are held first.
 * Production says events may arrive late and out of order but not how; these make a receiver meet both on
 * demand, deterministically (a seeded shuffle, a fixed hold).
 */

/** The orders an event's deliveries can go out in: as built, last first, or shuffled by `orderSeed`. */
export const DELIVERY_ORDERS = ["in-order", "reverse", "shuffled"] as const;
/** One of DELIVERY_ORDERS. */
type DeliveryOrder = (typeof DELIVERY_ORDERS)[number];
/** Longest an event may be held before its first delivery, in milliseconds (one minute). */
export const MAX_EVENT_DELAY_MS = 60_000;
/** Seed of the shuffle when an event asks for `shuffled` without `orderSeed`. */
const DEFAULT_ORDER_SEED = 1;

/** mulberry32: a small seeded generator of numbers in [0, 1); the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The positions of `count` deliveries in the order they go out: `[0, 1, ...]` in order, reversed, or a
 * Fisher-Yates shuffle drawn from `seed` (the same seed, the same order).
 */
export function deliveryOrder(count: number, order: DeliveryOrder, seed = DEFAULT_ORDER_SEED): number[] {
  const positions = Array.from({ length: count }, (_, i) => i);
  if (order === "reverse") return positions.reverse();
  if (order === "in-order") return positions;
  const next = seededRandom(seed);
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [positions[i], positions[j]] = [positions[j] as number, positions[i] as number];
  }
  return positions;
}
