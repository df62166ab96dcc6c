/**
 * The edges of the batched creates (one POST per shop, a create waiting for its shop's other declared
 * creates): a sibling that turns out unchanged, an engine running one step at a time, ids answered in another
 * order, a sibling the service fails on; the refusal when a recorded shop lists nothing; one hook under two
 * keys of one shop.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { TRACE_FILE_VARIABLE } from "../../provider/operations/trace";
import { parseTrace } from "../../scripts/bench/slotTrace";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider } from "../support/provider";
import { ACME_KEY, ACME_SECOND_KEY, GLOBEX_KEY } from "../support/shops";
import { withoutTimers } from "../support/timers";

const SHIPMENTS = "shipment_status_change";
const LABELS = "shipment_label_created";
const ORDERS = "order_status_change";

const acme = useAcmeSimulator();

const decl = (hook: string) => ({ hook, url: `https://h.example/${hook}` });
const posts = () => acme.sim.requests().filter((r) => r.method === "POST");

describe("the wait for the shop's other creates", () => {
  it("does not stall when an unchanged sibling's diff settles after the create joined the batch", async () => {
    // The stack already subscribes LABELS (recorded with its shopId). The program now declares ORDERS first,
    // then LABELS unchanged: the engine checks ORDERS, starts its create, and meanwhile checks and diffs
    // LABELS. Both the create and the diff wait on the shop's first listing; the create joins the batch first.
    const first = await freshProvider(acme.config);
    const kept = await first.create(decl(LABELS));
    const provider = await freshProvider(acme.config);
    await provider.check({}, decl(ORDERS));
    // Sent as soon as LABELS is known to be unchanged: no timer (neither the wait nor the idle one) sends it.
    await withoutTimers("the create of ORDERS", async () => {
      const created = provider.create(decl(ORDERS));
      await provider.check(kept.outs as unknown as Record<string, unknown>, decl(LABELS));
      const unchanged = await provider.diff(
        kept.id,
        kept.outs as unknown as Record<string, unknown>,
        decl(LABELS),
      );
      expect(unchanged.changes).toBe(false); // nothing else will come for this shop
      await created;
    });
  });

  it("does not stall each create when the engine runs one step at a time (--parallel 1)", async () => {
    // With one worker the engine checks the next resource while the current create runs, and starts the next
    // create only when the current one returns: a create can never be joined by a sibling it waits for.
    const traceDir = mkdtempSync(join(tmpdir(), "create-trace-"));
    onTestFinished(() => rmSync(traceDir, { recursive: true, force: true }));
    const traceFile = join(traceDir, "slots.jsonl");
    const provider = await freshProvider(acme.config, { ...process.env, [TRACE_FILE_VARIABLE]: traceFile });
    const hooks = [SHIPMENTS, LABELS, ORDERS];
    await provider.check({}, decl(hooks[0] as string));
    for (let i = 0; i < hooks.length; i++) {
      const running = provider.create(decl(hooks[i] as string));
      const next = hooks[i + 1];
      if (next !== undefined) await provider.check({}, decl(next));
      await running;
    }
    expect(acme.sim.subscriptions("acme")).toHaveLength(3);
    // Each create goes once no other create arrives for a moment (the idle timer), never after the full wait
    // for its shop's other declared creates ("window"): that would cost (hooks - 1) x CREATE_WAIT_MS and save
    // no POST. The last one has no declared create left to wait for ("complete"). The trace says what sent
    // each batch.
    const creates = parseTrace(readFileSync(traceFile, "utf8")).filter((line) => line.op === "create");
    expect(creates.map((line) => line.batch)).toEqual([
      { create: 1, createFlush: "idle" },
      { create: 1, createFlush: "idle" },
      { create: 1, createFlush: "complete" },
    ]);
    expect(posts()).toHaveLength(3);
  });
});

/** An answer a proxy gives: status, headers and body text. */
interface ProxyAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * A loopback proxy in front of the simulator at `target`: `before` may answer a request itself (from its
 * method and body), else it goes on unchanged and `after` may edit the simulator's answer.
 */
async function loopbackProxy(
  target: string,
  edit: {
    readonly before?: (method: string, body: string) => ProxyAnswer | undefined;
    readonly after?: (method: string, answer: ProxyAnswer) => ProxyAnswer;
  },
): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    // Sent whole, with its length (a streamed answer's transfer-encoding does not apply any more).
    const send = ({ status, headers, text }: ProxyAnswer) => {
      const whole = { ...headers, "content-length": String(Buffer.byteLength(text)) };
      delete whole["transfer-encoding"];
      res.writeHead(status, whole);
      res.end(text);
    };
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? "GET";
      const own = edit.before?.(method, body.toString("utf8"));
      if (own !== undefined) return send(own);
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: req.url, method, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => {
            const got = {
              status: answer.statusCode ?? 502,
              headers: answer.headers,
              text: Buffer.concat(parts).toString("utf8"),
            };
            send(edit.after?.(method, got) ?? got);
          });
        },
      );
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A loopback proxy in front of the simulator that answers a POST's ids in another order than the request's
 * (here: ascending id). The spec only says `data.ids` has "one entry per created subscription", not in which
 * order; before batching each POST carried one hook, so the order never mattered.
 */
function reorderingProxy(target: string): Promise<{ url: string; server: Server }> {
  return loopbackProxy(target, {
    after: (method, answer) => {
      if (method !== "POST" || answer.status !== 200) return answer;
      const parsed = JSON.parse(answer.text) as { data: { ids: { id: number }[] } };
      parsed.data.ids.sort((a, b) => a.id - b.id);
      return { ...answer, text: JSON.stringify(parsed) };
    },
  });
}

describe("ids of one batched POST", () => {
  let proxy: { url: string; server: Server };
  beforeAll(async () => {
    proxy = await reorderingProxy(acme.sim.baseUrl);
  });
  afterAll(() => new Promise<void>((resolve) => proxy.server.close(() => resolve())));

  const viaProxy = () => ({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": proxy.url });

  /**
   * The shop has ORDERS already (a low id); the program declares SHIPMENTS and ORDERS (another URL): one POST
   * of [SHIPMENTS (new id), ORDERS (overwritten)]. Under new-id the answer is [high, higher]; a service that
   * lists ids in ascending order answers the same; under keep-id ORDERS keeps its low id and an ascending
   * answer swaps the two.
   */
  async function createBothUnderKeepId() {
    acme.sim.setSwitches({ overwrite: "keep-id" });
    const seed = await freshProvider(viaProxy());
    await seed.create({ hook: ORDERS, url: "https://h.example/old" });
    const provider = await freshProvider(viaProxy());
    // The seed stands for a subscription made outside the stack: the resource opts in to take it over.
    return Promise.all([
      provider.create(decl(SHIPMENTS)),
      provider.create({ ...decl(ORDERS), takeOver: true }),
    ]);
  }

  it("each create records its own hook's id, whatever order the service answers them in", async () => {
    const created = await createBothUnderKeepId();
    expect(posts().at(-1)?.body).toMatchObject({ data: { webhook_subscriptions: [{}, {}] } });
    const live = acme.sim.subscriptions("acme");
    const recordedVsLive = created.map((c) => ({
      hook: c.outs.hook,
      liveHookOfRecordedId: live.find((s) => s.id === Number(c.id))?.hook,
    }));
    // Matched by position, each resource would record the other hook's subscription.
    expect(recordedVsLive).toEqual(
      created.map((c) => ({ hook: c.outs.hook, liveHookOfRecordedId: c.outs.hook })),
    );
  });

  it("so destroy deletes both subscriptions: none is left that no state records", async () => {
    const created = await createBothUnderKeepId();
    // `pulumi destroy` in a later deployment: every delete resolves, so the engine reports success.
    const destroyer = await freshProvider(viaProxy());
    await Promise.all(
      created.map((c) => destroyer.deleteSubscription(c.id, c.outs as unknown as Record<string, unknown>)),
    );
    // With the ids swapped, each delete would see "another hook" under its id and leave it: two orphans.
    expect(acme.sim.subscriptions("acme").map((s) => s.hook)).toEqual([]);
  });
});

describe("a recorded shop that now lists nothing (the key reaches another, empty shop)", () => {
  it("diff refuses before any write, under either replace order, and the advice given recovers", async () => {
    // Created in acme; then the default shop's key is swapped to globex's, which lists no subscription. A
    // replace would orphan acme's subscription (deleteBeforeReplace: the old delete runs while globex still
    // lists nothing) or leave no way out (create-before-delete).
    const before = await freshProvider(acme.config);
    const old = await before.create(decl(ORDERS));
    const oldOuts = old.outs as unknown as Record<string, unknown>;
    expect(old.outs.shopId).toBeDefined();
    const swapped = await freshProvider({
      "shipping:apiKey": GLOBEX_KEY,
      "shipping:baseUrl": acme.sim.baseUrl,
    });
    await swapped.check(oldOuts, decl(ORDERS));
    acme.sim.clearRequests();
    const refusal = String(await swapped.diff(old.id, oldOuts, decl(ORDERS)).catch((e: unknown) => e));
    expect(refusal).toContain("lists no subscription at all");
    expect(refusal).toContain("Nothing was changed.");
    expect(refusal).toContain("pulumi up --refresh");
    expect(refusal).toContain("Another shop's key in shipping:apiKey? Set it back");
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    // Advice: set the key back and run up (no change), then destroy with it (the subscription goes).
    const keyBack = await freshProvider(acme.config);
    await keyBack.check(oldOuts, decl(ORDERS));
    expect((await keyBack.diff(old.id, oldOuts, decl(ORDERS))).changes).toBe(false);
    await (await freshProvider(acme.config)).deleteSubscription(old.id, oldOuts);
    expect({ acme: acme.sim.subscriptions("acme"), globex: acme.sim.subscriptions("globex") }).toEqual({
      acme: [],
      globex: [],
    });
  });
});

/** A loopback proxy that answers 500 (a fault in the service) to any POST whose body holds `poison`. */
function poisonProxy(target: string, poison: string): Promise<{ url: string; server: Server }> {
  const text = JSON.stringify({
    message: "internal error",
    errors: [{ code: 1, message: "internal error" }],
  });
  return loopbackProxy(target, {
    before: (method, body) =>
      method === "POST" && body.includes(poison)
        ? { status: 500, headers: { "content-type": "application/json" }, text }
        : undefined,
  });
}

describe("a sibling whose content makes the service fail (5xx)", () => {
  it("fails only its own create, as a refusal (4xx) of its content would", async () => {
    const proxy = await poisonProxy(acme.sim.baseUrl, "https://h.example/poison");
    onTestFinished(() => new Promise<void>((resolve) => proxy.server.close(() => resolve())));
    const provider = await freshProvider({ "shipping:apiKey": ACME_KEY, "shipping:baseUrl": proxy.url });
    const outcomes = await Promise.allSettled([
      provider.create(decl(SHIPMENTS)),
      provider.create({ hook: ORDERS, url: "https://h.example/poison" }),
    ]);
    // As when each hook had its own POST: SHIPMENTS is subscribed. Failing both with the 500 of the shared
    // POST would block SHIPMENTS on every `up` for as long as the other hook is declared.
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected"]);
  });
});

describe("one hook per shop under two keys of one shop", () => {
  it("adding the hook under a second key of the shop fails when the first declaration is already deployed", async () => {
    // README, Guarantees: "One hook per shop: ... under two keys of one shop (when the service reports
    // shop_id) it fails before the second write." Here the first declaration was deployed by an earlier `up`.
    const twoKeys = {
      ...acme.config,
      "shipping:shops": JSON.stringify({ alias: { apiKey: ACME_SECOND_KEY } }),
    };
    const first = await freshProvider(twoKeys);
    const orders = await first.create({ hook: ORDERS, url: "https://h.example/first" });
    const ordersOuts = orders.outs as unknown as Record<string, unknown>;
    expect(orders.outs.shopId).toBeDefined();
    // The next `up` declares it again under the shop's second key: check, diff of the first, create of the second.
    const provider = await freshProvider(twoKeys);
    // The engine checks and diffs each resource as the program registers it.
    const first_ = await provider.check(ordersOuts, { hook: ORDERS, url: "https://h.example/first" });
    expect(
      (await provider.diff(orders.id, ordersOuts, { hook: ORDERS, url: "https://h.example/first" })).changes,
    ).toBe(false);
    const second_ = await provider.check(
      {},
      { hook: ORDERS, url: "https://h.example/second", shop: "alias" },
    );
    // The first keeps the live subscription: the second's check refuses before the engine plans a write.
    expect(first_.failures).toEqual([]);
    expect(second_.failures).toEqual([
      {
        property: "hook",
        reason: expect.stringMatching(
          /^order_status_change is declared twice for shop alias: another resource of this stack keeps subscription 1 /,
        ),
      },
    ]);
    // The create, under the shop's write lane, asks the rule again and refuses it too.
    const second = await Promise.allSettled([
      provider.create({ hook: ORDERS, url: "https://h.example/second", shop: "alias" }),
    ]);
    const outcome = {
      secondCreate: second[0]?.status,
      live: acme.sim.subscriptions("acme").map((s) => [s.id, s.url]),
      firstRecords: [Number(orders.id), "https://h.example/first"],
    };
    // Letting it through would overwrite the first's subscription, leaving the first resource recording an id
    // (and URL) no longer live while `up` reports success.
    expect(outcome.secondCreate).toBe("rejected");
    expect(outcome.live).toEqual([outcome.firstRecords]);
  });
});
