import { describe, expect, it } from "vitest";
import type { Switches } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider } from "../support/provider";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

type Matrix = Pick<Switches, "authScheme" | "getStatus" | "overwrite" | "partialIds" | "shopFields">;
const MATRIX: Matrix[] = [];
for (const authScheme of ["basic", "bearer", "both"] as const) {
  for (const overwrite of ["keep-id", "new-id"] as const) {
    for (const partialIds of ["subset", "404"] as const) {
      for (const shopFields of ["listed", "omitted"] as const) {
        const getStatus = MATRIX.length % 2 === 0 ? 200 : 201;
        MATRIX.push({ authScheme, getStatus, overwrite, partialIds, shopFields });
      }
    }
  }
}

const SHIPMENTS = "shipment_status_change";
const LABELS = "shipment_label_created";
const ORDERS = "order_status_change";

describe.each(MATRIX)(
  "provider lifecycle with auth=$authScheme, GET $getStatus, overwrite=$overwrite, partialIds=$partialIds, shopFields=$shopFields",
  (switches) => {
    const acme = useAcmeSimulator({ switches });

    const hooksOf = (hook: string) => acme.sim.subscriptions("acme").filter((s) => s.hook === hook);
    /** API calls, less the one 401 per process with which `auto` learns that the service wants `basic`. */
    const calls = () => acme.sim.requests().filter((r) => r.status !== 401);

    it("creates a shop's hooks with one POST, reads and deletes them, with the spec's headers", async () => {
      const provider = await freshProvider(acme.config);
      const created = await Promise.all(
        [SHIPMENTS, LABELS, ORDERS].map((hook) =>
          provider.create({ hook, url: `https://h.example/${hook}` }),
        ),
      );
      const live = acme.sim.subscriptions("acme");
      expect(live.map((s) => [s.id, s.hook, s.url]).sort()).toEqual(
        created.map((c) => [Number(c.id), c.outs.hook, c.outs.url]).sort(),
      );
      for (const c of created) expect(c.outs.subscriptionId).toBe(Number(c.id));
      // The three creates arrive together: one POST carries all three hooks.
      const posts = calls().filter((r) => r.method === "POST");
      expect(posts).toHaveLength(1);
      // One shared listing per shop; the shop was empty, so one read-back of a new id learns its shop_id.
      expect(calls().filter((r) => r.method === "GET")).toHaveLength(2);
      const shopId =
        switches.shopFields === "listed"
          ? String(Object.keys(acme.sim.state().shops).indexOf("acme") + 1)
          : undefined;
      for (const c of created) expect(c.outs.shopId).toBe(shopId);
      for (const c of created) expect(c.outs.api).toBe(acme.sim.baseUrl.replace("localhost", "127.0.0.1"));
      for (const post of posts) {
        expect(post.headers["user-agent"]).toBe("CustomApiCall/2");
        expect(post.headers.accept).toBe("application/json");
        expect(post.headers["content-type"]).toBe("application/json; charset=utf-8");
      }

      acme.sim.clearRequests();
      const fresh = await freshProvider(acme.config);
      const reads = await Promise.all(
        created.map((c) => fresh.read(c.id, c.outs as unknown as Record<string, unknown>)),
      );
      expect(reads.map((r) => r.props?.url)).toEqual(created.map((c) => c.outs.url));
      expect(calls().filter((r) => r.method === "GET")).toHaveLength(1); // one listing of the shop

      acme.sim.clearRequests();
      await Promise.all(
        created.map((c) => fresh.deleteSubscription(c.id, c.outs as unknown as Record<string, unknown>)),
      );
      expect(acme.sim.subscriptions("acme")).toEqual([]);
      expect(
        calls()
          .map((r) => r.method)
          .sort(),
      ).toEqual(["DELETE"]); // the refresh's listing guards the deletes of the same deployment: one DELETE
    });

    it("lists a shop once per deployment, even when its creates do not overlap", async () => {
      const provider = await freshProvider(acme.config);
      const ids: Record<string, string> = {};
      for (const hook of [SHIPMENTS, LABELS, ORDERS]) {
        ids[hook] = (await provider.create({ hook, url: `https://h.example/${hook}` })).id;
      }
      // The listing, the first write, one read-back of it (the shop was empty: it learns the shop_id), writes.
      // When the service reports no shop, every write into the shop that listed nothing is read back: only that
      // tells a subscription overwritten at once (by another key of the same shop) from one that is live.
      const listed = switches.shopFields === "listed";
      expect(calls().map((r) => r.method)).toEqual(
        listed
          ? ["GET", "POST", "GET", "POST", "POST"]
          : ["GET", "POST", "GET", "POST", "GET", "POST", "GET"],
      );
      // A later replacement in the same deployment sees this deployment's own write as the previous one.
      const replaced = await provider.create({ hook: ORDERS, url: "https://h.example/orders-v2" });
      expect(replaced.outs.previous).toEqual({ id: Number(ids[ORDERS]), url: `https://h.example/${ORDERS}` });
      expect(calls().filter((r) => r.method === "GET")).toHaveLength(listed ? 2 : 5);
    });

    it("changes a URL with no gap: create-before-delete leaves one subscription, the new one, whose id is in state", async () => {
      const first = await (await freshProvider(acme.config)).create({
        hook: ORDERS,
        url: "https://old.example/o",
      });
      const deployment = await freshProvider(acme.config);
      const news = { hook: ORDERS, url: "https://new.example/o" };
      // The engine's order: the replacement's diff, then its create (which overwrites its own subscription).
      await deployment.diff(first.id, first.outs as unknown as Record<string, unknown>, news);
      const replacement = await deployment.create(news);
      expect(hooksOf(ORDERS)).toEqual([
        { id: Number(replacement.id), hook: ORDERS, url: "https://new.example/o" },
      ]);
      await deployment.deleteSubscription(first.id, first.outs as unknown as Record<string, unknown>);
      expect(hooksOf(ORDERS)).toEqual([
        { id: Number(replacement.id), hook: ORDERS, url: "https://new.example/o" },
      ]);
      expect(calls().filter((r) => r.method === "DELETE")).toEqual([]);
      if (switches.overwrite === "keep-id") expect(replacement.id).toBe(first.id);
      else expect(replacement.id).not.toBe(first.id);
      expect(replacement.outs.previous).toEqual({ id: Number(first.id), url: "https://old.example/o" });
    });

    it("finishes an interrupted URL change in a later deployment without deleting the new subscription", async () => {
      const first = await (await freshProvider(acme.config)).create({
        hook: ORDERS,
        url: "https://old.example/o",
      });
      const news = { hook: ORDERS, url: "https://new.example/o" };
      const deployment = await freshProvider(acme.config);
      await deployment.diff(first.id, first.outs as unknown as Record<string, unknown>, news);
      const replacement = await deployment.create(news);
      // The engine retries the pending delete of the old resource in a new provider process.
      await (await freshProvider(acme.config)).deleteSubscription(
        first.id,
        first.outs as unknown as Record<string, unknown>,
      );
      expect(hooksOf(ORDERS)).toEqual([
        { id: Number(replacement.id), hook: ORDERS, url: "https://new.example/o" },
      ]);
    });

    it("replaces on a hook change: the old hook is unsubscribed, the new one subscribed", async () => {
      const old = await (await freshProvider(acme.config)).create({
        hook: LABELS,
        url: "https://h.example/x",
      });
      const deployment = await freshProvider(acme.config);
      const replacement = await deployment.create({ hook: SHIPMENTS, url: "https://h.example/x" });
      await deployment.deleteSubscription(old.id, old.outs as unknown as Record<string, unknown>);
      expect(acme.sim.subscriptions("acme")).toEqual([
        { id: Number(replacement.id), hook: SHIPMENTS, url: "https://h.example/x" },
      ]);
    });

    it("adopts an existing subscription: no write when the URL matches; refuses another URL unless takeOver, and says so", async () => {
      const provider = await freshProvider(acme.config);
      const existing = await provider.create({ hook: LABELS, url: "https://pre.example/l" });
      acme.sim.clearRequests();
      const same = await (await freshProvider(acme.config)).create({
        hook: LABELS,
        url: "https://pre.example/l",
      });
      expect(same.id).toBe(existing.id);
      expect(same.outs.previous).toEqual({ id: Number(existing.id), url: "https://pre.example/l" });
      expect(calls().map((r) => r.method)).toEqual(["GET"]);

      acme.sim.clearRequests();
      await expect(
        (await freshProvider(acme.config)).create({ hook: LABELS, url: "https://mine.example/l" }),
      ).rejects.toThrow(`already has subscription ${existing.id}, which calls another URL`);
      expect(calls().map((r) => r.method)).toEqual(["GET"]);
      const other = await (await freshProvider(acme.config)).create({
        hook: LABELS,
        url: "https://mine.example/l",
        takeOver: true,
      });
      expect(other.outs.previous).toEqual({ id: Number(existing.id), url: "https://pre.example/l" });
      expect(other.outs.takenOver).toBe(Number(existing.id));
      expect(hooksOf(LABELS)).toEqual([
        { id: Number(other.id), hook: LABELS, url: "https://mine.example/l" },
      ]);
    });

    it("treats a subscription re-pointed out of band as gone (refresh drops it, up --refresh restores it with takeOver) and a deleted one too", async () => {
      const created = await (await freshProvider(acme.config)).create({
        hook: SHIPMENTS,
        url: "https://a.example/s",
      });
      const client = new (await import("../../provider/client/shippingClient.js")).ShippingClient({
        baseUrl: acme.sim.baseUrl,
        apiKey: ACME_KEY,
      });
      await client.create([{ hook: SHIPMENTS, url: "https://backoffice.example/s" }]); // the back office
      const live = hooksOf(SHIPMENTS)[0];
      const state = { ...created.outs, subscriptionId: live?.id } as unknown as Record<string, unknown>;
      expect(await (await freshProvider(acme.config)).read(String(live?.id), state)).toEqual({});
      // `up --refresh`: the refresh's reads and the update's creates in one deployment. The subscription the
      // refresh dropped was the stack's, so the create may overwrite it with no opt-in.
      const deployment = await freshProvider(acme.config);
      expect(await deployment.read(created.id, created.outs as never)).toEqual({});
      const declared = { hook: SHIPMENTS, url: "https://a.example/s" };
      // The back office's URL is no resource's (whether the service kept the id or not): made outside the
      // stack, it is overwritten only with the resource's opt-in.
      await expect(deployment.create(declared)).rejects.toThrow(`already has subscription ${live?.id},`);
      const restored = await deployment.create({ ...declared, takeOver: true });
      expect(hooksOf(SHIPMENTS)).toEqual([
        { id: Number(restored.id), hook: SHIPMENTS, url: "https://a.example/s" },
      ]);
      expect(restored.outs.previous).toEqual({ id: live?.id, url: "https://backoffice.example/s" });
      await client.delete([Number(restored.id)]);
      expect(await (await freshProvider(acme.config)).read(restored.id, restored.outs as never)).toEqual({});
      await client.close();
    });

    it("deletes idempotently and never a subscription that now points elsewhere", async () => {
      const created = await (await freshProvider(acme.config)).create({
        hook: ORDERS,
        url: "https://a.example/o",
      });
      const props = created.outs as unknown as Record<string, unknown>;
      await (await freshProvider(acme.config)).deleteSubscription(created.id, props);
      await (await freshProvider(acme.config)).deleteSubscription(created.id, props); // already gone: success
      expect(hooksOf(ORDERS)).toEqual([]);

      const mine = await (await freshProvider(acme.config)).create({
        hook: ORDERS,
        url: "https://a.example/o",
      });
      // Another declaration (say, another stack, which opts in to take the hook over) re-points it afterwards.
      const theirs = await (await freshProvider(acme.config)).create({
        hook: ORDERS,
        url: "https://b.example/o",
        takeOver: true,
      });
      await (await freshProvider(acme.config)).deleteSubscription(
        mine.id,
        mine.outs as unknown as Record<string, unknown>,
      );
      expect(hooksOf(ORDERS)).toEqual([{ id: Number(theirs.id), hook: ORDERS, url: "https://b.example/o" }]);
    });

    it("keeps shops apart: shop inputs pick keys from shipping:shops", async () => {
      const shops = JSON.stringify({ acme: { apiKey: ACME_KEY }, globex: { apiKey: GLOBEX_KEY } });
      const provider = await freshProvider({ "shipping:shops": shops, "shipping:baseUrl": acme.sim.baseUrl });
      await provider.create({ hook: ORDERS, url: "https://acme.example/o", shop: "acme" });
      const globex = await provider.create({ hook: ORDERS, url: "https://globex.example/o", shop: "globex" });
      expect(globex.outs.shop).toBe("globex");
      expect(acme.sim.subscriptions("acme").map((s) => s.url)).toEqual(["https://acme.example/o"]);
      expect(acme.sim.subscriptions("globex").map((s) => s.url)).toEqual(["https://globex.example/o"]);
    });
  },
);
