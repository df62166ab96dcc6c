import type { ShopSeed } from "../../simulator";

/** Test keys; obviously fake, and asserted never to leak. */
export const ACME_KEY = "acme-rw-test-key-01";
export const ACME_READ_ONLY_KEY = "acme-ro-test-key-01";
export const GLOBEX_KEY = "globex-rw-test-key-02";
/** A second read-write key of acme: the same real shop under another key. */
export const ACME_SECOND_KEY = "acme-rw-test-key-03";

/** Two shops, so isolation is exercised. */
export const TEST_SHOPS: ShopSeed[] = [
  { name: "acme", keys: { readWrite: [ACME_KEY, ACME_SECOND_KEY], readOnly: [ACME_READ_ONLY_KEY] } },
  { name: "globex", keys: { readWrite: [GLOBEX_KEY] } },
];

/** acme's and globex's shop_id: the simulator numbers shops by their position in the seed. */
export const ACME_SHOP_ID = String(TEST_SHOPS.findIndex((s) => s.name === "acme") + 1);
export const GLOBEX_SHOP_ID = String(TEST_SHOPS.findIndex((s) => s.name === "globex") + 1);

/** Every form in which a key must never show up. */
export function secretForms(key: string): string[] {
  return [key, Buffer.from(key, "utf8").toString("base64")];
}

/** Fails the test when any form of `key` occurs in `text`. */
export function leaksOf(key: string, text: string): string[] {
  return secretForms(key).filter((form) => text.includes(form));
}

/** Stack config of the acme shop against a simulator, with the key set as a secret. */
export function acmeStackConfig(baseUrl: string): Record<string, { value: string; secret?: boolean }> {
  return { "shipping:apiKey": { value: ACME_KEY, secret: true }, "shipping:baseUrl": { value: baseUrl } };
}
