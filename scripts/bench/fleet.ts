import type { PulumiFn } from "@pulumi/pulumi/automation";
import { HOOKS, WebhookSubscription } from "../../provider";
import type { ShopSeed } from "../../simulator";

/** S shops named shop-0001..., each with one read-write key. */
export function shopSeeds(count: number): ShopSeed[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `shop-${String(i + 1).padStart(4, "0")}`;
    return { name, keys: { readWrite: [`bench-key-${name}`] } };
  });
}

/** The `shipping:shops` config value for `seeds`. */
export function shopsConfig(seeds: readonly ShopSeed[], baseUrl: string): string {
  return JSON.stringify(
    Object.fromEntries(seeds.map((s) => [s.name, { apiKey: s.keys.readWrite[0], baseUrl }])),
  );
}

/** The callback URL of a hook of a shop; `version` changes every URL. */
export function callbackUrl(shop: string, hook: string, version = 1): string {
  return `https://hooks.example.com/${shop}/${hook}/v${version}`;
}

/** What a fleet program declares: per shop and hook, a URL version (absent: not declared). */
export type Declared = (shop: string, hook: string) => number | undefined;

/** A program declaring the hooks of the shops in `seeds` that `declared` returns a version for. */
export function fleetProgram(seeds: () => readonly ShopSeed[], declared: Declared): PulumiFn {
  return async () => {
    for (const seed of seeds()) {
      for (const hook of HOOKS) {
        const version = declared(seed.name, hook);
        if (version === undefined) continue;
        new WebhookSubscription(`${seed.name}-${hook}`, {
          shop: seed.name,
          hook,
          url: callbackUrl(seed.name, hook, version),
        });
      }
    }
  };
}
