/**
 * The soak's second process: runs the traffic against the simulator whose URL it is given, reports each
 * interval's figures when asked, and at the end its model of the writer slots. Messages (IPC):
 * in `{type:"start", baseUrl, durationMs, seed}` and `{type:"sample"}`; out `{type:"sample", stats}` and
 * `{type:"done", slots, total, received}`.
 */
import { seededRandom } from "../../simulator/deliveryOrder";
import { notifier, startSoakReceiver, subscribeReceiver } from "./deliveries";
import { heldSockets } from "./heldSockets";
import { amplifier, hostile } from "./hostile";
import {
  CONTROL_BURST_EVERY_MS,
  type Context,
  controlBursts,
  reader,
  writer,
  writerSlots,
} from "./scenarios";
import { WRITER_SHOPS } from "./shops";
import { Stats } from "./stats";

/** Concurrent readers, hostile clients and notifiers (writers: one per slot, 30). */
const READERS = 6;
const HOSTILE_CLIENTS = 6;
const NOTIFIERS = 3;
/** Clients of each held kind (silent, trickling GET) that keep their end open (heldSockets.ts). */
const HELD_CLIENTS = 4;

/** Start message. */
export interface StartMessage {
  type: "start";
  baseUrl: string;
  durationMs: number;
  seed: number;
  /** The receiver's certificate and key (signed by the CA the simulator trusts). */
  tls: { cert: string; key: string };
}

const stats = new Stats();

function reply(message: unknown): void {
  process.send?.(message);
}

async function main(start: StartMessage): Promise<void> {
  const ctx: Context = {
    baseUrl: start.baseUrl,
    stats,
    deadline: Date.now() + start.durationMs,
    random: seededRandom(start.seed),
  };
  const slots = writerSlots();
  const receiver = await startSoakReceiver(start.tls, seededRandom(start.seed + 1));
  await subscribeReceiver(ctx, receiver.url);
  await Promise.all([
    ...Array.from({ length: NOTIFIERS }, () => notifier(ctx)),
    ...slots.map((slot, i) => writer(ctx, slot, i)),
    ...Array.from({ length: READERS }, (_, i) => reader(ctx, i % WRITER_SHOPS)),
    ...Array.from({ length: HOSTILE_CLIENTS }, () => hostile(ctx)),
    amplifier(ctx),
    ...Array.from({ length: HELD_CLIENTS }, () => heldSockets(ctx, "silent")),
    ...Array.from({ length: HELD_CLIENTS }, () => heldSockets(ctx, "trickling GET")),
    controlBursts({ ...ctx, deadline: ctx.deadline - CONTROL_BURST_EVERY_MS }),
  ]);
  await receiver.close();
  reply({
    type: "done",
    received: receiver.received(),
    slots: slots.map(({ shop, hook, model }) => ({ shop, hook, model })),
    total: {
      requests: stats.total.requests,
      unexpected: stats.total.unexpected,
      byStatus: Object.fromEntries(stats.total.byStatus),
      samples: stats.total.samples,
    },
  });
}

process.on("disconnect", () => process.exit(0));
process.on("message", (message: { type: string }) => {
  if (message.type === "sample") reply({ type: "sample", stats: stats.take() });
  if (message.type === "start") {
    main(message as StartMessage).catch((error: unknown) => {
      process.stderr.write(`soak traffic failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    });
  }
});
