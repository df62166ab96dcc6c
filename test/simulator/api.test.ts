import { describe, expect, it } from "vitest";
import {
  api,
  auth,
  call,
  expectErrorShape,
  OTHER_KEY,
  startSim,
  startSimWith,
  subs,
  TWO_SHOPS,
} from "./helpers";

const A = "https://example.com/a";
const B = "https://example.com/b";
/** Orders at A (id 1), labels at B (id 2). */
const ORDERS_AND_LABELS: Array<[string, string]> = [
  ["order_status_change", A],
  ["shipment_label_created", B],
];
/** A simulator whose partialIds switch is 404 (a list with an unknown id fails whole), with orders at A as id 1. */
const ordersUnderPartialIds404 = () =>
  startSimWith([["order_status_change", A]], { switches: { partialIds: "404" } });

describe("GET /", () => {
  it("answers 200 with title and status OK, without credentials", async () => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "GET", "/");
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(reply.json).toEqual({ title: "Shipping Service API (simulator)", status: "OK" });
    expect(sim.requests()).toMatchObject([{ method: "GET", path: "/", status: 200 }]);
  });
});

describe("POST /webhook_subscriptions", () => {
  it("creates subscriptions and answers their ids in request order", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A], ["shipment_status_change", B]),
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ data: { ids: [{ id: 1 }, { id: 2 }] } });
    expect(sim.subscriptions("demo")).toEqual([
      { id: 1, hook: "order_status_change", url: A },
      { id: 2, hook: "shipment_status_change", url: B },
    ]);
    const [entry] = sim.requests();
    expect(entry).toMatchObject({ method: "POST", status: 200, shop: "demo", keyRole: "read-write" });
    expect(entry?.body).toEqual(subs(["order_status_change", A], ["shipment_status_change", B]));
  });

  it("also accepts POST on /webhook_subscriptions/ and ignores extra item fields", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions/", {
      body: { data: { webhook_subscriptions: [{ hook: "order_status_change", url: A, id: 99 }] } },
    });
    expect(reply.status).toBe(200);
    expect(sim.subscriptions("demo")).toEqual([{ id: 1, hook: "order_status_change", url: A }]);
  });

  it("stores the url exactly as posted (no normalisation)", async () => {
    const sim = await startSimWith([["order_status_change", "https://example.com"]]);
    expect(sim.subscriptions("demo")[0]?.url).toBe("https://example.com");
  });

  it("never reuses ids after deletion", async () => {
    const sim = await startSimWith([["order_status_change", A]]);
    expect((await api(sim, "DELETE", "/webhook_subscriptions/1")).status).toBe(204);
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A]),
    });
    expect(reply.json).toEqual({ data: { ids: [{ id: 2 }] } });
    expect(sim.state().nextId).toBe(3);
  });
});

describe("GET /webhook_subscriptions", () => {
  it("lists the shop's subscriptions sorted by id, with shop_id and account_id, on every list path", async () => {
    const sim = await startSimWith([
      ["shipment_label_created", B],
      ["order_status_change", A],
    ]);
    for (const path of [
      "/webhook_subscriptions",
      "/webhook_subscriptions/",
      "/webhook_subscriptions?hook=x",
    ]) {
      const reply = await api(sim, "GET", path);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({
        data: {
          webhook_subscriptions: [
            { id: 1, hook: "shipment_label_created", url: B, shop_id: 1, account_id: 1 },
            { id: 2, hook: "order_status_change", url: A, shop_id: 1, account_id: 1 },
          ],
        },
      });
    }
    expect(sim.requests()[3]).toMatchObject({ path: "/webhook_subscriptions", query: "hook=x" });
  });

  it("answers an empty list for a shop without subscriptions", async () => {
    const sim = await startSim();
    const reply = await api(sim, "GET", "/webhook_subscriptions");
    expect(reply.json).toEqual({ data: { webhook_subscriptions: [] } });
  });

  it("gets by ids in the requested order, leaving out unknown ids and dropping duplicates", async () => {
    const sim = await startSimWith(ORDERS_AND_LABELS);
    const reply = await api(sim, "GET", "/webhook_subscriptions/2;77;1;2");
    expect(reply.status).toBe(200);
    const listed = (reply.json as { data: { webhook_subscriptions: Array<{ id: number }> } }).data
      .webhook_subscriptions;
    expect(listed.map((s) => s.id)).toEqual([2, 1]);
  });

  it("answers 404 for the whole list under partialIds 404 when some ids are unknown", async () => {
    const sim = await ordersUnderPartialIds404();
    const reply = await api(sim, "GET", "/webhook_subscriptions/1;77");
    expect(reply.status).toBe(404);
    const error = expectErrorShape(reply);
    expect(error.message).toContain("77");
    expect(error.message).not.toContain("1,");
    expect((await api(sim, "GET", "/webhook_subscriptions/1")).status).toBe(200);
  });

  it("lists only id, hook and url under shopFields omitted", async () => {
    const sim = await startSimWith([["order_status_change", A]], { switches: { shopFields: "omitted" } });
    for (const path of ["/webhook_subscriptions", "/webhook_subscriptions/1"]) {
      const reply = await api(sim, "GET", path);
      expect(reply.json).toEqual({
        data: { webhook_subscriptions: [{ id: 1, hook: "order_status_change", url: A }] },
      });
    }
  });

  it("answers 404 when none of the ids is found", async () => {
    const sim = await startSim();
    const reply = await api(sim, "GET", "/webhook_subscriptions/5;6");
    expect(reply.status).toBe(404);
    const error = expectErrorShape(reply);
    expect(error).toMatchObject({ code: 10004, title: "Subscription not found" });
    expect(error.message).toContain("5, 6");
  });

  it.each([
    ["abc", '"abc"'],
    ["1;;2", "an empty id"],
    ["1;", "an empty id"],
    ["0", '"0"'],
    ["-1", '"-1"'],
    ["1.5", '"1.5"'],
    ["99999999999999999999", '"99999999999999999999"'],
    ["1%3B2", '"1%3B2"'],
  ])("answers 400 for the id list %s naming the bad segment", async (segment, named) => {
    const sim = await startSim();
    for (const method of ["GET", "DELETE"]) {
      const reply = await api(sim, method, `/webhook_subscriptions/${segment}`);
      expect(reply.status).toBe(400);
      const error = expectErrorShape(reply);
      expect(error.code).toBe(10000);
      expect(error.message).toContain(named);
    }
  });
});

describe("DELETE /webhook_subscriptions/{ids}", () => {
  it("deletes several ids and answers 204 with an empty body", async () => {
    const sim = await startSimWith([
      ["order_status_change", A],
      ["shipment_label_created", B],
      ["shipment_status_change", A],
    ]);
    const reply = await api(sim, "DELETE", "/webhook_subscriptions/1;3");
    expect(reply.status).toBe(204);
    expect(reply.text).toBe("");
    expect(sim.subscriptions("demo").map((s) => s.id)).toEqual([2]);
    expect(sim.requests().at(-1)).toMatchObject({ method: "DELETE", status: 204 });
  });

  it("deletes the known ids of a list with unknown ones by default (partialIds subset)", async () => {
    const sim = await startSimWith(ORDERS_AND_LABELS);
    const reply = await api(sim, "DELETE", "/webhook_subscriptions/1;42");
    expect(reply.status).toBe(204);
    expect(sim.subscriptions("demo").map((s) => s.id)).toEqual([2]);
  });

  it("answers 404 naming the unknown ids and deletes nothing when none is known", async () => {
    const sim = await startSim();
    const reply = await api(sim, "DELETE", "/webhook_subscriptions/41;42");
    expect(reply.status).toBe(404);
    expect(expectErrorShape(reply).message).toContain("41, 42");
  });

  it("answers 404 naming the unknown id and deletes nothing under partialIds 404", async () => {
    const sim = await ordersUnderPartialIds404();
    const reply = await api(sim, "DELETE", "/webhook_subscriptions/1;42");
    expect(reply.status).toBe(404);
    const error = expectErrorShape(reply);
    expect(error.message).toContain("42");
    expect(error.message).toContain("nothing was deleted");
    expect(sim.subscriptions("demo")).toHaveLength(1);
  });

  it("answers 405 with Allow when no id is given", async () => {
    const sim = await startSim();
    const reply = await api(sim, "DELETE", "/webhook_subscriptions");
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe("GET, HEAD, POST");
  });
});

describe("shop isolation", () => {
  it("a shop never sees, gets or deletes another shop's subscriptions", async () => {
    const sim = await startSimWith([["order_status_change", A]], { shops: TWO_SHOPS });
    const other = { headers: { authorization: auth(OTHER_KEY) } };
    const posted = await api(sim, "POST", "/webhook_subscriptions", {
      ...other,
      body: subs(["order_status_change", B]),
    });
    expect(posted.json).toEqual({ data: { ids: [{ id: 2 }] } });

    const list = await api(sim, "GET", "/webhook_subscriptions", other);
    expect(list.json).toEqual({
      data: {
        webhook_subscriptions: [{ id: 2, hook: "order_status_change", url: B, shop_id: 2, account_id: 1 }],
      },
    });
    expect((await api(sim, "GET", "/webhook_subscriptions/1", other)).status).toBe(404);
    const mixed = await api(sim, "GET", "/webhook_subscriptions/1;2", other);
    expect(
      (mixed.json as { data: { webhook_subscriptions: unknown[] } }).data.webhook_subscriptions,
    ).toHaveLength(1);

    const denied = await api(sim, "DELETE", "/webhook_subscriptions/1", other);
    expect(denied.status).toBe(403);
    expect(expectErrorShape(denied).message).toBe("Permission Denied. (deleteResourceOwnedByOthers)");
    const deniedMixed = await api(sim, "DELETE", "/webhook_subscriptions/2;1", other);
    expect(deniedMixed.status).toBe(403);
    expect(sim.state().shops).toEqual({
      demo: [{ id: 1, hook: "order_status_change", url: A }],
      other: [{ id: 2, hook: "order_status_change", url: B }],
    });
    expect(sim.requests().at(-1)).toMatchObject({ shop: "other", status: 403 });
  });

  it.each([
    ["ownership", "subset", 403],
    ["existence", "subset", 403],
    ["ownership", "404", 403],
    ["existence", "404", 404],
  ] as const)(
    "deleteCheckOrder %s, partialIds %s: a DELETE of another shop's id and an unknown id answers %i and deletes nothing",
    async (deleteCheckOrder, partialIds, status) => {
      const sim = await startSimWith([["order_status_change", A]], {
        shops: TWO_SHOPS,
        switches: { deleteCheckOrder, partialIds },
      });
      const other = { headers: { authorization: auth(OTHER_KEY) } };
      const reply = await api(sim, "DELETE", "/webhook_subscriptions/1;42", other);
      expect(reply.status).toBe(status);
      expect(expectErrorShape(reply).message).toContain(
        status === 404 ? "42" : "deleteResourceOwnedByOthers",
      );
      expect(sim.subscriptions("demo")).toHaveLength(1);
    },
  );
});
