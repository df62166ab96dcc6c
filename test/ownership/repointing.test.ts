/**
 * A subscription id means something only at the API that issued it. When a shop's base URL now reaches
 * another API (another service, another loopback address on the same port, a re-pointed shop entry next to
 * another configured shop that cannot say which shop it is), preview, up, refresh and destroy refuse before
 * any write, naming both APIs, and the state stays as it was; set back, the stack is as it was. Run in the
 * engine's order of calls (test/support/engineOrder.ts); test/ownership/refusals.engine.test.ts shows one such refusal through
 * the real CLI.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { configOf, LABELS, ORDERS, SHIPMENTS, shops, writes } from "../support/services";
import { ACME_KEY, GLOBEX_KEY, TEST_SHOPS } from "../support/shops";

/** Two services with the same shops: where the stack was deployed, and where its base URL is re-pointed. */
const stagingSim = useAcmeSimulator();
const productionSim = useAcmeSimulator();

const PROGRAM: Declaration[] = [
  { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
];

/** Every command of the stack, each as the engine would run it with the current configuration. */
const commands = (stack: Stack, program: readonly Declaration[]) =>
  [
    ["preview", () => stack.preview(program)],
    ["up", () => stack.up(program)],
    ["refresh", () => stack.refresh()],
    ["destroy", () => stack.destroy()],
  ] as const;

describe("shipping:baseUrl re-pointed to another service", () => {
  it("preview, up, refresh and destroy refuse before any write, naming both APIs; set back, nothing changes", async () => {
    const staging = stagingSim.sim;
    const production = productionSim.sim;
    const stack = new Stack(configOf(staging));
    expect((await stack.up(PROGRAM)).ok).toBe(true);
    // Production already has subscriptions under the same ids, with other hooks and URLs.
    await outOfBand(production.baseUrl, ACME_KEY, (api) =>
      api.create([
        { hook: LABELS, url: "https://other-team.example.com/l" },
        { hook: SHIPMENTS, url: "https://other-team.example.com/s" },
      ]),
    );
    const foreign = production.subscriptions("acme");
    const before = stack.recorded();
    expect(foreign.map((s) => s.id)).toEqual(before.map((r) => r.id));

    stack.set({ "shipping:baseUrl": production.baseUrl });
    production.clearRequests();
    for (const [what, command] of commands(stack, PROGRAM)) {
      const outcome = await command();
      expect(outcome.ok, what).toBe(false);
      expect(outcome.error, what).toContain(`was created at ${staging.baseUrl}`);
      expect(outcome.error, what).toContain(`now reaches ${production.baseUrl}`);
      expect(outcome.error, what).toContain("Nothing was changed");
    }
    expect(writes(production)).toEqual([]);
    expect(production.subscriptions("acme")).toEqual(foreign);
    expect(stack.recorded()).toEqual(before);
    expect(staging.subscriptions("acme")).toEqual(before);

    // Set back (and `up`, whose configuration refresh and destroy use), all is as it was.
    stack.set({ "shipping:baseUrl": staging.baseUrl });
    const up = await stack.up(PROGRAM);
    expect(up).toMatchObject({ ok: true, steps: { same: 2, create: 0, replace: 0, delete: 0 } });
    const settled = await stack.preview(PROGRAM, { refresh: true });
    expect(settled).toMatchObject({ ok: true, steps: { same: 2, replace: 0 } });
    expect(writes(production)).toEqual([]);
    expect((await stack.destroy()).ok).toBe(true);
    expect(staging.subscriptions("acme")).toEqual([]);
    expect(production.subscriptions("acme")).toEqual(foreign);
  });

  it("two services on one port at 127.0.0.1 and 127.0.0.2 are two APIs: the change is refused, and nothing of the other is deleted", async () => {
    const first = stagingSim.sim;
    // By hand, not the fixture: the second service listens on the first one's port, at another address.
    const port = Number(new URL(first.baseUrl).port);
    const second = await startSimulator({ shops: TEST_SHOPS, host: "127.0.0.2", port });
    onTestFinished(() => second.close());
    const program: Declaration[] = [{ name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" }];
    const stack = new Stack(configOf(first));
    expect((await stack.up(program)).ok).toBe(true);
    // The other service's back office has the same hook and URL under the same id.
    await outOfBand(second.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: ORDERS, url: "https://hooks.example.com/o" }]),
    );
    const theirs = second.subscriptions("acme");
    second.clearRequests();
    expect(theirs.map((s) => s.id)).toEqual(stack.recorded().map((r) => r.id));
    stack.set({ "shipping:baseUrl": second.baseUrl });
    for (const [what, command] of commands(stack, program)) {
      const outcome = await command();
      expect(outcome.error, what).toContain(`was created at ${first.baseUrl}`);
    }
    expect(writes(second)).toEqual([]);
    expect(second.subscriptions("acme")).toEqual(theirs);
    expect(first.subscriptions("acme")).toEqual(stack.recorded());
  });
});

describe("a shop entry's baseUrl re-pointed, with another configured shop at the old API", () => {
  /** The default shop (globex) at staging declares nothing; entry acme is re-pointed from staging to production. */
  async function repointedEntry(staging: RunningSimulator, production: RunningSimulator) {
    const program: Declaration[] = [
      { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o", shop: "acme" },
    ];
    const stack = new Stack(
      configOf(staging, GLOBEX_KEY, {
        "shipping:shops": shops({ acme: { apiKey: ACME_KEY, baseUrl: staging.baseUrl } }),
      }),
    );
    expect((await stack.up(program)).ok).toBe(true);
    const created = staging.subscriptions("acme");
    expect(created).toHaveLength(1);
    stack.set({ "shipping:shops": shops({ acme: { apiKey: ACME_KEY, baseUrl: production.baseUrl } }) });
    return { stack, program, created };
  }

  it.each(["listed", "omitted"] as const)(
    "shop_id %s: preview, up, refresh and destroy refuse rather than act in the other shop, which lists nothing",
    async (shopFields) => {
      const staging = stagingSim.withSwitches({ shopFields });
      const production = productionSim.withSwitches({ shopFields });
      const { stack, program, created } = await repointedEntry(staging, production);
      staging.clearRequests();
      for (const [what, command] of commands(stack, program)) {
        const outcome = await command();
        expect(outcome.error, what).toContain(`now reaches ${production.baseUrl}`);
        expect(outcome.error, what).toContain(`was created at ${staging.baseUrl}`);
        expect(stack.recorded(), what).toEqual(created);
      }
      expect([...writes(staging), ...writes(production)]).toEqual([]);
      expect(staging.subscriptions("acme")).toEqual(created);
      expect(staging.subscriptions("globex")).toEqual([]);
    },
  );
});
