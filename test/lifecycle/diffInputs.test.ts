import { describe, expect, it } from "vitest";
import { diffInputs, UNKNOWN_VALUE } from "../../provider/inputs/lifecycle";

const base = {
  hook: "shipment_status_change",
  url: "https://a.example/x",
  subscriptionId: 4,
  __provider: "exports.handler = old build",
};

describe("diffInputs", () => {
  it.each([
    ["nothing changed", {}, []],
    ["only the provider build changed", { __provider: "exports.handler = new build" }, []],
    ["an output differs", { subscriptionId: 9, previous: { id: 1, url: "https://z.example" } }, []],
    ["url changed", { url: "https://b.example/x" }, ["url"]],
    ["hook changed", { hook: "order_status_change" }, ["hook"]],
    ["shop set", { shop: "acme" }, ["shop"]],
    ["url unknown at preview", { url: UNKNOWN_VALUE }, ["url"]],
    ["hook and url changed", { hook: "order_status_change", url: "https://b.example/x" }, ["hook", "url"]],
  ])("%s", (_case, change, replaces) => {
    const news = { hook: base.hook, url: base.url, __provider: base.__provider, ...change };
    const olds = { ...base };
    const decision = diffInputs(olds, news);
    expect(decision).toEqual({ changes: replaces.length > 0, replaces, deleteBeforeReplace: false });
  });

  it("treats an absent shop and an undefined shop as the same", () => {
    expect(diffInputs({ ...base, shop: undefined }, { hook: base.hook, url: base.url }).changes).toBe(false);
  });
});
