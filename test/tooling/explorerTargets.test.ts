import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OperationResult } from "../../scripts/explorer/engine";
import type { LiveSub, Snapshot, StateRecord } from "../../scripts/explorer/ledger";
import { SHOP_KEYS } from "../../scripts/explorer/model";
import { Services } from "../../scripts/explorer/services";
import { resolveTarget, scopeOptions, stepsUnder, targetCandidates } from "../../scripts/explorer/targets";
import { type OperationFacts, recordsKeptLive, writesRecorded } from "../../scripts/explorer/verdicts";

describe("the explorer's targeted operations", () => {
  it("name a recorded resource, or for an up a declared one, the same one on every replay", () => {
    expect(targetCandidates("destroy", ["sub-bravo"], ["sub-alpha"])).toEqual(["sub-bravo"]);
    expect(targetCandidates("up", ["sub-bravo"], ["sub-alpha", "sub-bravo"])).toEqual([
      "sub-alpha",
      "sub-bravo",
    ]);
    expect(resolveTarget(["sub-alpha", "sub-bravo"], "sub-bravo")).toBe("sub-bravo");
    expect(resolveTarget(["sub-alpha", "sub-bravo"], "sub-delta")).toBe("sub-bravo");
    expect(resolveTarget([], "sub-alpha")).toBeUndefined();
  });

  it("step only the target, or all but the excluded one, and pass the URN as the Automation API option", () => {
    expect(stepsUnder({ mode: "target", name: "sub-alpha" }, "sub-bravo")).toBe(false);
    expect(stepsUnder({ mode: "exclude", name: "sub-alpha" }, "sub-bravo")).toBe(true);
    expect(stepsUnder(undefined, "sub-bravo")).toBe(true);
    expect(scopeOptions("one", { mode: "targetDependents", name: "sub-alpha" })).toEqual({
      target: ["urn:pulumi:one::explorer::pulumi-nodejs:dynamic/shipping:WebhookSubscription::sub-alpha"],
      targetDependents: true,
    });
    expect(scopeOptions("one", { mode: "exclude", name: "sub-alpha" }).exclude).toHaveLength(1);
  });
});

const SUB: LiveSub = {
  shop: "main/acme",
  id: 1,
  hook: "order_status_change",
  url: "https://h.example.com/a",
};
const RECORD: StateRecord = { name: "sub-bravo", ...SUB, retainOnDelete: false, protect: false };
const FAILED: OperationResult = {
  ok: false,
  text: "Diagnostics:\n  pulumi-nodejs:dynamic/shipping:WebhookSubscription (sub-alpha):\n    error: GET /webhook_subscriptions/1 failed\n",
  outputs: {},
};

function facts(over: Partial<OperationFacts>): OperationFacts {
  const none: Snapshot = new Map();
  return {
    stack: "one",
    op: "up",
    scope: undefined,
    killed: false,
    result: { ok: true, text: "", outputs: {} },
    before: none,
    after: none,
    changes: [],
    recordsBefore: [],
    records: [],
    pendingAfter: [],
    ...over,
  };
}

describe("the explorer's verdicts on one operation", () => {
  it("flag a subscription removed while the record that holds it stays", () => {
    const live: Snapshot = new Map([["main/acme", [SUB]]]);
    const kept = facts({
      before: live,
      recordsBefore: [RECORD],
      records: [RECORD],
      scope: { mode: "target", name: "sub-alpha" },
    });
    expect(recordsKeptLive(kept)).toEqual([
      "up --target sub-alpha of one succeeded and removed id 1 order_status_change https://h.example.com/a, which sub-bravo records and still records",
    ]);
    expect(recordsKeptLive({ ...kept, after: live })).toEqual([]);
    expect(recordsKeptLive({ ...kept, records: [] })).toEqual([]);
  });

  it("flag a write no state records, unless the failed operation's error names its id as an id", () => {
    const wrote = facts({ result: FAILED, changes: [{ shop: SUB.shop, hook: SUB.hook, after: SUB }] });
    expect(writesRecorded(wrote)).toHaveLength(1);
    const named = { ...FAILED, text: `${FAILED.text}    error: the POST wrote ids 1, 2 in shop acme\n` };
    expect(writesRecorded({ ...wrote, result: named })).toEqual([]);
    expect(writesRecorded({ ...wrote, records: [RECORD] })).toEqual([]);
  });

  it("accept a write whose id nothing told, when the error names its hook as one that may be subscribed", () => {
    const wrote = facts({ result: FAILED, changes: [{ shop: SUB.shop, hook: SUB.hook, after: SUB }] });
    const told = (hooks: string) => ({
      ...FAILED,
      text: `${FAILED.text}    error: Request failed: POST http://127.0.0.1:1/webhook_subscriptions (shop alt) — other side closed (UND_ERR_SOCKET). The service may have applied it, and shop alt could not be listed to tell: ${hooks} may be subscribed now with no record in state. Run \`pulumi up\` next\n`,
    });
    expect(writesRecorded({ ...wrote, result: told(`shipment_status_change, ${SUB.hook}`) })).toEqual([]);
    expect(writesRecorded({ ...wrote, result: told("shipment_status_change") })).toHaveLength(1);
  });
});

describe("the explorer's faults between a write and its read-back", () => {
  let services: Services;
  const auth = { authorization: `bearer ${Buffer.from(SHOP_KEYS.acme1.key).toString("base64")}` };
  const base = () => services.baseUrl({ service: "main", spelling: "ip", key: "acme1" });
  const get = async (path = "") =>
    (await fetch(`${base()}/webhook_subscriptions${path}`, { headers: auth })).status;
  const post = async () => {
    const body = {
      data: { webhook_subscriptions: [{ hook: "order_status_change", url: "https://h.example.com/a" }] },
    };
    const init = {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    };
    return fetch(`${base()}/webhook_subscriptions`, init).then(
      (r) => r.status,
      () => 0,
    );
  };

  beforeAll(async () => {
    // By hand, not the fixture: the explorer's own services (its shops, switches and fault names) are under test.
    services = await Services.start();
  });
  afterEach(() => services.clearFaults());
  afterAll(async () => {
    await services.close();
  });

  it("let the listing before the POST and the POST pass, then fail the read-back of the ids once", async () => {
    await services.reset();
    services.armFault("main", "500-after-post-once");
    expect([await get(), await post(), await get("/1"), await get("/1")]).toEqual([200, 200, 500, 200]);
  });

  it("apply the POST and lose its answer, then fail the listing that would confirm it", async () => {
    await services.reset();
    services.armFault("main", "lost-post-then-500");
    expect([await get(), await post(), await get()]).toEqual([200, 0, 500]);
    expect(services.snapshot().get("main/acme")).toHaveLength(1);
  });
});
