import type { PulumiFn } from "@pulumi/pulumi/automation";
import { HOOKS } from "../../../provider";
import type { ShopSeed } from "../../../simulator";
import { callbackUrl } from "../fleet";
import { FloorWebhook } from "./provider";

/** The bench fleet (every shop's three hooks) declared with the engine-floor resource: no API, no config. */
export function floorFleetProgram(seeds: readonly ShopSeed[]): PulumiFn {
  return async () => {
    for (const seed of seeds) {
      for (const hook of HOOKS) {
        new FloorWebhook(`${seed.name}-${hook}`, {
          shop: seed.name,
          hook,
          url: callbackUrl(seed.name, hook),
        });
      }
    }
  };
}
