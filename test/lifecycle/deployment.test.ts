/**
 * A stack's everyday commands. A URL the service would not call as written (uppercase, plain HTTP) fails
 * preview at `check`, on the `url` property, before any API call. Three hooks deployed, a preview and a
 * refresh change nothing and write nothing: each lists the shop once (is the key still the recorded shop's?),
 * and destroy empties the shop. Run in the engine's order of calls (test/support/engineOrder.ts).
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { Stack } from "../support/engineOrder";
import { configOf, SHIPMENTS, THREE_HOOKS, writes } from "../support/services";

const acme = useAcmeSimulator();

describe("preview of a URL the service would not call as written", () => {
  it.each([
    ["uppercase", "https://Hooks.example.com/s", /must be lowercase.*https:\/\/hooks\.example\.com\/s/],
    ["plain HTTP", "http://hooks.example.com/s", /must use HTTPS/],
  ] as const)("%s: fails at check, naming the url property, with no API request", async (_, url, reason) => {
    const sim = acme.sim;
    const stack = new Stack(configOf(sim));
    const preview = await stack.preview([{ name: "shipments", hook: SHIPMENTS, url }]);
    expect(preview.ok).toBe(false);
    expect(preview.error).toMatch(/^shipments: url: /);
    expect(preview.error).toMatch(reason);
    expect(sim.requests()).toEqual([]);
  });
});

describe("a deployed stack with no change", () => {
  it("up creates three; preview and refresh change nothing, write nothing and list the shop once each; destroy empties the shop", async () => {
    const sim = acme.sim;
    const stack = new Stack(configOf(sim));
    expect(await stack.up(THREE_HOOKS)).toMatchObject({ ok: true, steps: { create: 3 } });
    const live = sim.subscriptions("acme");
    expect(live.map((s) => [s.hook, s.url]).sort()).toEqual(THREE_HOOKS.map((d) => [d.hook, d.url]).sort());
    expect(stack.recorded()).toEqual(live);
    const deployed = stack.resources;

    sim.clearRequests();
    expect(await stack.preview(THREE_HOOKS)).toMatchObject({ ok: true, steps: { same: 3, replace: 0 } });
    expect(await stack.refresh()).toMatchObject({ ok: true, steps: { read: 3 } });
    expect(stack.resources).toEqual(deployed);
    expect(writes(sim)).toEqual([]);
    expect(sim.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /webhook_subscriptions/",
      "GET /webhook_subscriptions/",
    ]);

    expect(await stack.destroy()).toMatchObject({ ok: true, steps: { delete: 3 } });
    expect(sim.subscriptions("acme")).toEqual([]);
    expect(stack.resources).toEqual([]);
  });
});
