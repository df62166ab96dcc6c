import type { PulumiFn } from "@pulumi/pulumi/automation";
import { HOOKS } from "../../../provider";
import type { ShopSeed } from "../../../simulator";
import { callbackUrl } from "../fleet";
import { NaiveWebhook, naiveProvider } from "./provider";

/** The bench fleet (every shop's three hooks) declared with the naive provider: one provider object per shop. */
export function naiveFleetProgram(seeds: readonly ShopSeed[], baseUrl: string): PulumiFn {
  return async () => {
    for (const seed of seeds) {
      const provider = naiveProvider(baseUrl, seed.keys.readWrite[0] ?? "");
      for (const hook of HOOKS) {
        new NaiveWebhook(`${seed.name}-${hook}`, { hook, url: callbackUrl(seed.name, hook) }, provider);
      }
    }
  };
}
