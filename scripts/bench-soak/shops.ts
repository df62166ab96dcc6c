/** The shops and keys of the soak: writers' shops, an intruder that owns nothing. */
import type { ShopSeed } from "../../simulator";

/** Writer shops (each with the three hooks of contract/hooks.ts: one writer per hook and shop). */
export const WRITER_SHOPS = 10;
/** Key of the shop that owns no subscription (its DELETEs of others' ids must be refused). */
export const INTRUDER_KEY = "soak-intruder-key";

/** The shop whose hooks are subscribed to the soak's receiver (no writer touches it). */
export const DELIVERY_SHOP = "soakdeliveries";
/** Its key. */
export const DELIVERY_SHOP_KEY = "soak-deliveries-key";

/** The API key of writer shop `i`. */
export const writerKey = (i: number): string => `soak-writer-key-${i}`;

/** Seeds for the simulator. */
export function soakShops(): ShopSeed[] {
  return [
    ...Array.from({ length: WRITER_SHOPS }, (_, i) => ({
      name: `soak${i}`,
      keys: { readWrite: [writerKey(i)] },
    })),
    { name: "intruder", keys: { readWrite: [INTRUDER_KEY] } },
    { name: DELIVERY_SHOP, keys: { readWrite: [DELIVERY_SHOP_KEY] } },
  ];
}

/** `Authorization` for a key. */
export const authFor = (key: string): string => `bearer ${Buffer.from(key).toString("base64")}`;
