import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { hooksFromConfig } from "../../provider/program/hooksFromConfig";

function configWith(hooks: unknown, secret = false): pulumi.Config {
  pulumi.runtime.setAllConfig(
    { "shop-hooks:hooks": JSON.stringify(hooks) },
    secret ? ["shop-hooks:hooks"] : [],
  );
  return new pulumi.Config("shop-hooks");
}

/** The value and secrecy of an output, as the engine would see them. */
async function unwrapped(
  value: string | pulumi.Output<string>,
): Promise<{ value: unknown; secret: boolean }> {
  if (typeof value === "string") return { value, secret: false };
  const secret = await pulumi.isSecret(value);
  const known = await new Promise((resolve) => value.apply(resolve));
  return { value: known, secret };
}

describe("hooksFromConfig", () => {
  afterEach(() => pulumi.runtime.setAllConfig({}));

  it("returns each declared hook and URL", () => {
    const config = configWith({
      order_status_change: "https://h.example/o",
      shipment_label_created: "https://h.example/l",
    });
    expect(hooksFromConfig(config)).toEqual([
      { hook: "order_status_change", url: "https://h.example/o", takeOver: false },
      { hook: "shipment_label_created", url: "https://h.example/l", takeOver: false },
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

  it("secret config: every URL is a secret output, and a bad entry's message does not quote it", async () => {
    const token = "https://h.example/o?token=s3cr3t";
    const hooks = hooksFromConfig(configWith({ order_status_change: token }, true));
    expect(hooks.map((h) => h.hook)).toEqual(["order_status_change"]);
    expect(await unwrapped(hooks[0]?.url as pulumi.Output<string>)).toEqual({ value: token, secret: true });

    const bad = "https://H.example/o?token=s3cr3t";
    let message = "";
    try {
      hooksFromConfig(configWith({ order_status_change: bad }, true));
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(
      /shop-hooks:hooks\.order_status_change: the URL \(a secret, not shown\) must be lowercase/,
    );
    expect(message).not.toContain("s3cr3t");
    expect(message).not.toContain("h.example");
  });

  it("<namespace>:takeOver lists hooks that may take over; anything else is reported by its path", () => {
    const hooks = {
      order_status_change: "https://h.example.com/o",
      shipment_label_created: "https://h.example.com/l",
    };
    pulumi.runtime.setAllConfig({
      "test:hooks": JSON.stringify(hooks),
      "test:takeOver": JSON.stringify(["order_status_change"]),
    });
    expect(hooksFromConfig(new pulumi.Config("test")).map((h) => [h.hook, h.takeOver])).toEqual([
      ["order_status_change", true],
      ["shipment_label_created", false],
    ]);
    pulumi.runtime.setAllConfig({
      "test:hooks": JSON.stringify(hooks),
      "test:takeOver": JSON.stringify(["shipment_status_change"]),
    });
    expect(() => hooksFromConfig(new pulumi.Config("test"))).toThrow(
      /test:takeOver: must list hooks of test:hooks whose subscription made outside the stack may be overwritten/,
    );
  });

  it("plain config: URLs stay strings", () => {
    expect(hooksFromConfig(configWith({ order_status_change: "https://h.example/o" }))[0]?.url).toBe(
      "https://h.example/o",
    );
  });
});
