/**
 * The plugin host's translations (provider/plugin/): secrets on the wire in and out, the provider config as
 * the settings read it (credentials always secret), an import id, and the schema's version.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { engineAddressOf } from "../../provider/facts/deploymentClaims";
import { parseImportId } from "../../provider/operations/importById";
import { checkedConfig, configSource, misspeltSettings } from "../../provider/plugin/config";
import schema from "../../provider/plugin/schema.json";
import { secretValue, toStruct, unwrap } from "../../provider/plugin/values";

describe("secrets on the wire", () => {
  it("unwraps secrets, remembers which top-level properties held one, and wraps them again", () => {
    const wire = toStruct({ hook: "order_status_change", url: secretValue("https://x.example/t?k=1") });
    const { values, secret } = unwrap(wire);
    expect(values).toEqual({ hook: "order_status_change", url: "https://x.example/t?k=1" });
    expect([...secret]).toEqual(["url"]);
    const back = toStruct(
      { ...values, previous: { id: 1, url: "u" }, gone: undefined },
      [...secret, "previous"],
      (k) => k.startsWith("__"),
    ).toJavaScript();
    expect(back.url).toEqual(secretValue("https://x.example/t?k=1"));
    expect(back.previous).toEqual(secretValue({ id: 1, url: "u" }));
    expect(back.hook).toBe("order_status_change");
    expect("gone" in back).toBe(false);
  });

  it("finds a secret nested in an object (a shop entry's key set with --secret --path)", () => {
    const { values, secret } = unwrap(toStruct({ shops: { acme: { apiKey: secretValue("k") } } }));
    expect(values).toEqual({ shops: { acme: { apiKey: "k" } } });
    expect([...secret]).toEqual(["shops"]);
  });

  it("drops the dynamic host's fields", () => {
    const out = toStruct({ __provider: "exports.handler=...", hook: "h" }, [], (k) => k.startsWith("__"));
    expect(out.toJavaScript()).toEqual({ hook: "h" });
  });
});

describe("the provider config", () => {
  it("answers apiKey and shops as secrets even when set in plain text", () => {
    const checked = checkedConfig({
      values: { apiKey: "k", baseUrl: "https://api", shops: "{}" },
      secret: new Set(),
    });
    expect([...checked.secret].sort()).toEqual(["apiKey", "shops"]);
  });

  it("reads settings without their namespace, object settings as JSON text, and variables as a fallback", () => {
    const source = configSource(
      { apiKey: "k", shops: { acme: { apiKey: "a" } }, version: "0.2.0" },
      new Map([["shipping:config:baseUrl", "https://api.example"]]),
    );
    expect(source("shipping:apiKey")).toBe("k");
    expect(JSON.parse(source("shipping:shops") ?? "")).toEqual({ acme: { apiKey: "a" } });
    expect(source("shipping:baseUrl")).toBe("https://api.example");
    expect(source("shipping:version")).toBeUndefined();
  });
});

describe("the provider config's keys", () => {
  it("fails a misspelt setting, naming the one meant; other keys (a project named shipping) pass", () => {
    const failures = misspeltSettings({ shopID: "s1", apiKey: "k", hooks: "[]", version: "0.2.0" });
    expect(failures.map((f) => f.property)).toEqual(["shopID"]);
    expect(failures[0]?.reason).toContain("did you mean `shipping:shopId`?");
    expect(failures[0]?.reason).not.toContain("s1");
  });
});

describe("the engine's address", () => {
  it("is found among a provider's arguments after any flags", () => {
    expect(engineAddressOf(["--tracing", "http://127.0.0.1:9411/api", "127.0.0.1:40123"])).toBe(
      "127.0.0.1:40123",
    );
    expect(engineAddressOf(["-v=9", "--logtostderr", "127.0.0.1:40123"])).toBe("127.0.0.1:40123");
    expect(engineAddressOf(["run"])).toBeUndefined();
  });
});

describe("an import id", () => {
  it("is a subscription id of the default shop, or <shop>/<id>", () => {
    expect(parseImportId("42")).toEqual({ id: 42 });
    expect(parseImportId("acme/42")).toEqual({ shop: "acme", id: 42 });
    expect(() => parseImportId("acme/")).toThrow(/is not a subscription to import/);
    expect(() => parseImportId("/42")).toThrow(/is not a subscription to import/);
  });
});

describe("the schema", () => {
  it("has the package's version and a pluginDownloadURL (a missing plugin is not looked up under pulumi)", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as {
      version: string;
    };
    expect(schema.version).toBe(manifest.version);
    expect(schema.pluginDownloadURL).not.toMatch(/pulumi\/pulumi/);
  });
});
