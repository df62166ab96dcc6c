/**
 * The soak's clients that keep their end of a connection open (issue 36 item 2): one that sends nothing (the
 * simulator answers 408 after its headers timeout) and one that sends a GET declaring a 1,000,000-byte body
 * and trickles it. Each waits, up to HELD_CLIENT_CAP_MS, for the simulator to close the connection; a
 * connection still open then is counted unexpected (the simulator held it), and closed by the client.
 */
import { connect } from "node:net";
import type { Context } from "./scenarios";

/** Longest a held client waits for the simulator to close, in milliseconds (its headers timeout is 10 s). */
const HELD_CLIENT_CAP_MS = 20_000;
/** Time between trickled body bytes, in milliseconds. */
const TRICKLE_EVERY_MS = 500;

type Held = "silent" | "trickling GET";

/** One held connection: resolves with the first status line the simulator sent and whether it closed. */
function holdOne(ctx: Context, kind: Held): Promise<{ status: number; closedBySimulator: boolean }> {
  const url = new URL(ctx.baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
    let head = "";
    let trickle: NodeJS.Timeout | undefined;
    const finish = (closedBySimulator: boolean): void => {
      clearTimeout(cap);
      clearInterval(trickle);
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), closedBySimulator });
    };
    const cap = setTimeout(() => finish(false), HELD_CLIENT_CAP_MS);
    socket.on("data", (chunk: Buffer) => {
      if (head.length < 64) head += chunk.toString("latin1");
    });
    socket.on("end", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", () => {
      if (kind === "silent") return;
      socket.write(`GET / HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 1000000\r\n\r\nx`);
      trickle = setInterval(() => socket.write("x"), TRICKLE_EVERY_MS);
    });
  });
}

/** Loop: held connections one after another, until the deadline (each counted as one answer). */
export async function heldSockets(ctx: Context, kind: Held): Promise<void> {
  while (Date.now() + HELD_CLIENT_CAP_MS < ctx.deadline) {
    const { status, closedBySimulator } = await holdOne(ctx, kind);
    const expected = kind === "silent" ? status === 408 : status === 200;
    ctx.stats.record(
      status,
      undefined,
      expected && closedBySimulator,
      `held ${kind} (closed by the simulator: ${closedBySimulator})`,
    );
  }
}
