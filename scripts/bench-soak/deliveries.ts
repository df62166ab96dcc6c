/**
 * Deliveries in the soak: an HTTPS receiver in the traffic process (certificate from the receiver example's
 * private CA, which the simulator trusts) that answers 200, 503, a long answer, or nothing until the
 * simulator gives up; and notifiers that emit events of every hook (labels up to 1000 ids, batches, order
 * ids, overrides and nested paths, late and reordered batches), resend logged deliveries, and send events
 * the simulator must refuse.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { HOOKS } from "../../contract/hooks";
import { type Context, JSON_TYPE, run, sleep } from "./scenarios";
import { authFor, DELIVERY_SHOP, DELIVERY_SHOP_KEY } from "./shops";

/** Switches the soak's simulator runs with: short waits, so retries and timeouts happen all the time. */
export const SOAK_DELIVERY_SWITCHES = {
  deliveryAttempts: 3,
  deliveryBackoffMs: 50,
  deliveryTimeoutMs: 500,
  deliveryDuplicates: 0.2,
} as const;
/** Longest a receiver holds an answer it never sends, in milliseconds (the simulator gave up at 500). */
const STALL_MS = 1_500;
/** Longest hold of a late event in the mix, in milliseconds. */
const LATE_EVENT_MS = 300;
/** Delivery ids remembered for resends. */
const KEPT_IDS = 100;

/** A running receiver. */
interface SoakReceiver {
  url: string;
  received(): number;
  close(): Promise<void>;
}

/** Start the receiver: `random` decides each answer (80% 200, 10% 503, 5% a 4 KiB answer, 5% none). */
export async function startSoakReceiver(
  tls: { cert: string; key: string },
  random: () => number,
): Promise<SoakReceiver> {
  let received = 0;
  const stalled = new Set<NodeJS.Timeout>();
  const server: Server = createServer(tls, (req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      const pick = random();
      if (pick < 0.8) res.writeHead(200).end("ok");
      else if (pick < 0.9) res.writeHead(503).end("busy");
      else if (pick < 0.95) res.writeHead(200).end("x".repeat(4_096));
      else {
        const timer = setTimeout(() => {
          stalled.delete(timer);
          res.destroy();
        }, STALL_MS);
        stalled.add(timer);
      }
    });
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of stalled) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Subscribe the delivery shop's three hooks to the receiver. */
export async function subscribeReceiver(ctx: Context, receiverUrl: string): Promise<void> {
  const items = HOOKS.map((hook) => ({ hook, url: `${receiverUrl}/${hook}` }));
  const reply = await run(
    ctx,
    false,
    "subscribe receiver",
    {
      method: "POST",
      path: "/webhook_subscriptions",
      headers: { ...JSON_TYPE, authorization: authFor(DELIVERY_SHOP_KEY) },
      body: JSON.stringify({ data: { webhook_subscriptions: items } }),
    },
    (s) => s === 200,
  );
  if (reply?.status !== 200) throw new Error(`could not subscribe the soak receiver: ${reply?.status}`);
}

const pick = <T>(ctx: Context, items: readonly T[]): T => items[Math.floor(ctx.random() * items.length)] as T;

/** One event to emit, and whether the simulator must refuse it (422). */
function eventFor(ctx: Context): [string, Record<string, unknown>, boolean] {
  const shop = DELIVERY_SHOP;
  const roll = ctx.random();
  if (roll < 0.3) {
    // Late and out of order as well: held up to LATE_EVENT_MS, sent in a seeded order.
    const late = {
      delayMs: pick(ctx, [0, 0, 50, LATE_EVENT_MS]),
      order: pick(ctx, ["in-order", "reverse", "shuffled"]),
      orderSeed: Math.floor(ctx.random() * 1_000),
    };
    return [
      "order",
      { kind: "order_status_change", shop, count: 1 + Math.floor(ctx.random() * 5), ...late },
      false,
    ];
  }
  if (roll < 0.55) {
    const order = ctx.random() < 0.5 ? { orderId: "6f1c1d7e-58a4-4c1e-9d7b-2b4f0c1e7a11" } : {};
    return [
      "shipment",
      { kind: "shipment_status_change", shop, status: pick(ctx, [2, 3, 7, 19]), ...order },
      false,
    ];
  }
  if (roll < 0.8) {
    const ids = Array.from({ length: 1 + Math.floor(ctx.random() * 1_000) }, (_, i) => 1_000_000 + i);
    return ["label", { kind: "shipment_label_created", shop, shipmentIds: ids, status: "success" }, false];
  }
  if (roll < 0.9) {
    const set = {
      barcode: "3SOVERRIDE",
      note: "n".repeat(8_000),
      nested: { a: [1, { b: 2 }] },
      "nested.a.1.c": 3,
      "nested.a.2": "appended",
      "meta.source.app": "soak",
    };
    return [
      "overridden",
      { kind: "shipment_status_change", shop, set, unset: ["shipment_reference_identifier"] },
      false,
    ];
  }
  if (roll < 0.95) {
    const ids = Array.from({ length: 150_000 }, (_, i) => i + 1);
    return ["oversized label", { kind: "shipment_label_created", shop, shipmentIds: ids }, true];
  }
  if (roll < 0.97) {
    // A path that does not fit the payload (barcode is a string): refused, naming it.
    return ["misfit path", { kind: "shipment_status_change", shop, set: { "barcode.x": 1 } }, true];
  }
  return [
    "oversized set",
    { kind: "order_status_change", shop, count: 40, set: { pad: "p".repeat(12_000) } },
    true,
  ];
}

/** Loop: emit events (or resend a logged delivery) and check the simulator's answer. */
export async function notifier(ctx: Context): Promise<void> {
  const ids: string[] = [];
  while (Date.now() < ctx.deadline) {
    if (ids.length > 0 && ctx.random() < 0.1) {
      const body = JSON.stringify({ id: pick(ctx, ids) });
      const call = { method: "POST", path: "/__sim/resend", headers: JSON_TYPE, body };
      // 404 when the log has dropped the delivery since.
      await run(ctx, false, "delivery resend", call, (s) => s === 200 || s === 404, false);
    } else {
      const [what, event, refused] = eventFor(ctx);
      const call = { method: "POST", path: "/__sim/events", headers: JSON_TYPE, body: JSON.stringify(event) };
      const reply = await run(
        ctx,
        false,
        `delivery ${what}`,
        call,
        (s) => s === (refused ? 422 : 200),
        false,
      );
      if (reply?.status === 200) {
        const sent = JSON.parse(reply.body) as { deliveryIds?: string[] };
        ids.push(...(sent.deliveryIds ?? []));
        ids.splice(0, Math.max(0, ids.length - KEPT_IDS));
      }
    }
    await sleep(Math.floor(ctx.random() * 50));
  }
}
