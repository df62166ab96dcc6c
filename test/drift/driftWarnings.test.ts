/**
 * A subscription changed in the back office is no longer the resource's: refresh drops it and the provider
 * says why (subscription id and hook) without quoting a URL, since any part of one may be secret, also a token
 * in the host name. Refresh drops a deleted one too, and `up` subscribes both again, leaving the rest alone.
 * Run in the engine's order of calls (test/support/engineOrder.ts); that the CLI shows the provider's warning is
 * shown by test/drift/drift.engine.test.ts and test/lifecycle/lifecycle.e2e.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { Stack } from "../support/engineOrder";
import { outOfBand } from "../support/outOfBand";
import { configOf, deployed, ORDERS, THREE_HOOKS } from "../support/services";
import { ACME_KEY } from "../support/shops";

const acme = useAcmeSimulator();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Everything the provider writes to stderr (which the CLI shows) while `run` runs; still written through. */
async function printedBy(run: () => Promise<unknown>): Promise<string> {
  let printed = "";
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    printed += String(chunk);
    return write(chunk, ...(rest as []));
  });
  await run();
  return printed;
}

describe("a URL changed in the back office", () => {
  it("refresh drops the resource, naming the id and hook, and prints no part of the secret URL, even a token in its host", async () => {
    const sim = acme.withSwitches({ overwrite: "keep-id" });
    const stack = new Stack(configOf(sim));
    expect(
      (await stack.up([{ name: "orders", hook: ORDERS, url: "https://tok-s3cret-123.hooks.example.com/o" }]))
        .ok,
    ).toBe(true);
    const id = stack.resource("orders")?.id;
    await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: ORDERS, url: "https://back-office.example.com/o" }]),
    );
    const printed = await printedBy(() => stack.refresh());
    expect(stack.resources).toEqual([]);
    expect(printed).toContain(
      `subscription ${id} (${ORDERS}) now points at another URL than this resource declared`,
    );
    expect(printed).not.toContain("s3cret");
    expect(printed).not.toContain("back-office.example.com");
  });
});

describe("back-office changes healed", () => {
  it("refresh drops a deleted subscription and a re-pointed one, naming the latter; up subscribes the deleted one again, the re-pointed one with takeOver", async () => {
    const { sim, stack } = await deployed(acme, THREE_HOOKS);
    const labels = Number(stack.resource("labels")?.id);
    const orders = stack.resource("orders")?.id;
    const shipments = stack.resource("shipments");
    await outOfBand(sim.baseUrl, ACME_KEY, async (api) => {
      await api.delete([labels]);
      sim.setSwitches({ overwrite: "keep-id" }); // a back-office edit of the URL keeps the subscription's id
      await api.create([{ hook: ORDERS, url: "https://backoffice.example.com/o" }]);
      sim.setSwitches({ overwrite: "new-id" });
    });

    let refresh: Awaited<ReturnType<Stack["refresh"]>> | undefined;
    const printed = await printedBy(async () => {
      refresh = await stack.refresh();
    });
    expect(refresh).toMatchObject({ ok: true, steps: { read: 3 } });
    expect(stack.resources).toEqual([shipments]);
    expect(printed).toContain(
      `subscription ${orders} (${ORDERS}) now points at another URL than this resource declared`,
    );
    expect(printed).not.toContain("backoffice.example.com");

    // Dropped by a refresh of its own, the re-pointed subscription is no resource's now: made outside the
    // stack, `up` refuses to overwrite it (nothing written) until the resource opts in; the deleted one is
    // subscribed again at once.
    const refused = await stack.up(THREE_HOOKS);
    expect(refused).toMatchObject({ ok: false, steps: { create: 1, same: 1 } });
    expect(refused.errors.join("\n")).toContain(
      `already has subscription ${orders}, which calls another URL`,
    );
    expect(sim.subscriptions("acme").find((s) => s.hook === ORDERS)?.url).toBe(
      "https://backoffice.example.com/o",
    );
    const takeOver = THREE_HOOKS.map((d) => (d.hook === ORDERS ? { ...d, takeOver: true } : d));
    expect(await stack.up(takeOver)).toMatchObject({ ok: true, steps: { create: 1, same: 2 } });
    const live = sim.subscriptions("acme");
    expect(live.map((s) => [s.hook, s.url]).sort()).toEqual(THREE_HOOKS.map((d) => [d.hook, d.url]).sort());
    expect(stack.recorded()).toEqual(live);
    expect(stack.resource("shipments")).toEqual(shipments);
  });
});
