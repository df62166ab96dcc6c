import { describe, expect, it } from "vitest";
import type { ConfigSource } from "../../provider/config/settings";
import { ShopTargets } from "../../provider/config/shopTargets";
import { ShippingConfigError } from "../../provider/errors";

const BASE = "http://127.0.0.1:4010";

function shops(count: number, keyOf = (i: number) => `key-${i}`): string {
  return JSON.stringify(
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { apiKey: keyOf(i) }])),
  );
}

describe("ShopTargets: each shop resolved once while the settings stay the same", () => {
  it("answers a repeated name and the configured list from memory (a destroy of 300 shops asks 270,000 times)", () => {
    const values: Record<string, string> = { "shipping:baseUrl": BASE, "shipping:shops": shops(300) };
    const targets = new ShopTargets(() => (key) => values[key], {});
    const first = targets.resolve("s7");
    const configured = targets.configured();
    expect(configured).toHaveLength(300);
    expect(targets.resolve("s7")).toBe(first);
    expect(targets.configured()).toBe(configured);
  });

  it("resolves again when stack config or the environment changes", () => {
    const values: Record<string, string> = { "shipping:baseUrl": BASE, "shipping:shops": shops(2) };
    let config: ConfigSource | undefined = (key) => values[key];
    const env: NodeJS.ProcessEnv = {};
    const targets = new ShopTargets(() => config, env);
    const before = targets.resolve("s1");
    expect(targets.configured()).toHaveLength(2);

    config = (key) => ({ ...values, "shipping:shops": shops(3, (i) => `rotated-${i}`) })[key];
    const rotated = targets.resolve("s1");
    expect(rotated.shopKey).not.toBe(before.shopKey);
    expect(targets.configured()).toHaveLength(3);

    env.SHIPPING_API_KEY = "default-key";
    expect(targets.configured()).toHaveLength(4);
    expect(targets.resolve(undefined).label).toBe("(default)");
  });

  it("never remembers a failure: a shop added to the settings is found on the next call", () => {
    const values: Record<string, string> = { "shipping:baseUrl": BASE, "shipping:shops": shops(1) };
    const targets = new ShopTargets(() => (key) => values[key], {});
    expect(() => targets.resolve("s1")).toThrow(ShippingConfigError);
    values["shipping:shops"] = shops(2);
    expect(targets.resolve("s1").label).toBe("s1");
  });
});
