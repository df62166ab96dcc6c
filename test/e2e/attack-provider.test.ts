/**
 * Review 13: provider-level attacks (provider/runtime.ts called directly, as test/integration/lifecycle does).
 * Each `it` asserts what the README or the guarantees say; a failing `it` is a counterexample.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type RunningSimulator, type Switches, startSimulator } from "../../simulator";
import { outOfBand } from "../support/outOfBand";
import { freshProvider } from "../support/provider";
import { ACME_KEY, GLOBEX_KEY, TEST_SHOPS } from "../support/shops";

const ORDERS = "order_status_change";

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

async function simulator(switches: Partial<Switches> = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ shops: TEST_SHOPS, switches });
  simulators.push(sim);
  return sim;
}

const asProps = (outs: unknown) => outs as Record<string, unknown>;

describe("attack P2: re-pointed shop entry, service omits shop_id, another shop configured at the old API", () => {
  it("refresh and destroy refuse, rather than act in another configured shop that cannot say which it is", async () => {
    const staging = await simulator({ shopFields: "omitted" });
    const production = await simulator({ shopFields: "omitted" });
    const before = {
      "shipping:apiKey": GLOBEX_KEY,
      "shipping:baseUrl": staging.baseUrl,
      "shipping:shops": JSON.stringify({ acme: { apiKey: ACME_KEY, baseUrl: staging.baseUrl } }),
    };
    const created = await (await freshProvider(before)).create({
      hook: ORDERS,
      url: "https://hooks.example.com/o",
      shop: "acme",
    });
    const after = {
      ...before,
      "shipping:shops": JSON.stringify({ acme: { apiKey: ACME_KEY, baseUrl: production.baseUrl } }),
    };
    const read = await (await freshProvider(after)).read(created.id, asProps(created.outs)).then(
      (r) => `returned ${JSON.stringify(r)}`,
      (e: unknown) => `threw ${String(e)}`,
    );
    const del = await (await freshProvider(after)).deleteSubscription(created.id, asProps(created.outs)).then(
      () => "returned",
      (e: unknown) => `threw ${String(e)}`,
    );
    console.log({ read, del, staging: staging.subscriptions("acme") });
    expect(read).toMatch(/^threw .*was created at/);
    expect(del).toMatch(/^threw .*was created at/);
  });
});

describe("attack P4: a secret callback URL whose token is in the host name", () => {
  it("is not printed by the 'now points at' warning", async () => {
    const sim = await simulator({ overwrite: "keep-id" });
    const config = { "shipping:apiKey": ACME_KEY, "shipping:baseUrl": sim.baseUrl };
    const created = await (await freshProvider(config)).create({
      hook: ORDERS,
      url: "https://tok-s3cret-123.hooks.example.com/o",
    });
    await outOfBand(sim.baseUrl, ACME_KEY, (api) =>
      api.create([{ hook: ORDERS, url: "https://back-office.example.com/o" }]),
    );
    let printed = "";
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      printed += String(chunk);
      return write(chunk, ...(rest as []));
    });
    await (await freshProvider(config)).read(created.id, asProps(created.outs));
    expect(printed).not.toContain("s3cret");
  });
});

describe("attack P5: two services on one port at two loopback addresses are one API to canonicalApi", () => {
  it("re-pointing http://127.0.0.1:P to http://127.0.0.2:P is refused; the other service's subscription is not deleted", async () => {
    const first = await simulator();
    const port = Number(new URL(first.baseUrl).port);
    const second = await startSimulator({ shops: TEST_SHOPS, host: "127.0.0.2", port });
    simulators.push(second);
    const decl = { hook: ORDERS, url: "https://hooks.example.com/o" };
    const created = await (
      await freshProvider({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": first.baseUrl })
    ).create(decl);
    // The other service's back office has the same hook and URL under the same id.
    await outOfBand(second.baseUrl, ACME_KEY, (api) => api.create([decl]));
    const p = await freshProvider({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": second.baseUrl });
    const diff = await p.diff(created.id, asProps(created.outs), decl).then(
      (d) => `no refusal ${JSON.stringify(d)}`,
      (e: unknown) => `threw ${String(e)}`,
    );
    await p.deleteSubscription(created.id, asProps(created.outs)).catch(() => undefined);
    console.log({ diff, second: second.subscriptions("acme"), first: first.subscriptions("acme") });
    expect(second.subscriptions("acme")).toHaveLength(1);
  });
});
