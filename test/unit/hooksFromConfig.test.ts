import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { hooksFromConfig } from "../../provider/hooksFromConfig";

function configWith(hooks: unknown): pulumi.Config {
  pulumi.runtime.setAllConfig({ "shop-hooks:hooks": JSON.stringify(hooks) });
  return new pulumi.Config("shop-hooks");
}

describe("hooksFromConfig", () => {
  afterEach(() => pulumi.runtime.setAllConfig({}));

  it("returns each declared hook and URL", () => {
    const config = configWith({
      order_status_change: "https://h.example/o",
      shipment_label_created: "https://h.example/l",
    });
    expect(hooksFromConfig(config)).toEqual([
      { hook: "order_status_change", url: "https://h.example/o" },
      { hook: "shipment_label_created", url: "https://h.example/l" },
    ]);
  });

  it("reports every bad entry at once, each with its stack-config path", () => {
    const config = configWith({
      order_status_change: "HTTP://H.example/o",
      parcel_lost: "https://h.example",
      shipment_status_change: 7,
    });
    expect(() => hooksFromConfig(config)).toThrow(
      /shop-hooks:hooks\.order_status_change: .*HTTPS[\s\S]*shop-hooks:hooks\.parcel_lost: not a hook[\s\S]*shop-hooks:hooks\.shipment_status_change: must be a URL string/,
    );
  });

  it.each([[["https://h.example"]], ["https://h.example"]])("refuses %j that is not a map", (value) => {
    expect(() => hooksFromConfig(configWith(value))).toThrow(/shop-hooks:hooks must map hooks to URLs/);
  });
});
