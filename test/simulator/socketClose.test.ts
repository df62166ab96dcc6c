/**
 * Issue 36 item 2: no socket is held after its last answer. After a 408 to a client that sent nothing, after a
 * refusal written straight on the socket, and after an answer whose request body was not read, the simulator
 * closes the connection itself, even when the client keeps its end open (as 300 such clients once exhausted a
 * 256-descriptor limit). The test and the simulator share a process, so the simulator's sockets are counted
 * as the process's TCP handles: the client's socket is one, a socket the simulator still holds is another.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningSimulator } from "../../simulator/index";
import { startSim, until } from "./helpers";

/** Time the simulator has to close a connection once its answer is out, in milliseconds (test deadline). */
const CLOSE_DEADLINE_MS = 5_000;

/** Open TCP sockets of this process (client and server ends alike). */
function tcpHandles(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "TCPSocketWrap").length;
}

/** A client that sends `text` and never closes its own end; it records what it reads and the server's FIN. */
interface HeldClient {
  socket: Socket;
  received(): string;
  ended(): boolean;
}

const clients: Socket[] = [];

afterEach(async () => {
  const open = clients.splice(0).filter((socket) => !socket.closed);
  for (const socket of open) socket.destroy();
  await until(
    () => (open.every((socket) => socket.closed) ? true : undefined),
    CLOSE_DEADLINE_MS,
    "clients closed",
  );
});

function holdOpen(sim: RunningSimulator, text: string): Promise<HeldClient> {
  const url = new URL(sim.baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
  clients.push(socket);
  let data = "";
  let ended = false;
  socket.on("data", (chunk: Buffer) => {
    data += chunk.toString("latin1");
  });
  socket.on("end", () => {
    ended = true;
  });
  socket.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.once("connect", () => {
      if (text !== "") socket.write(text);
      resolve({ socket, received: () => data, ended: () => ended });
    });
  });
}

/** Waits until the simulator has closed its end: the client saw the FIN and only the client's handle is left. */
async function expectClosedBySimulator(client: HeldClient, before: number): Promise<void> {
  await until(() => (client.ended() ? true : undefined), CLOSE_DEADLINE_MS, "the simulator's FIN");
  await until(
    () => (tcpHandles() <= before + 1 ? true : undefined),
    CLOSE_DEADLINE_MS,
    "the simulator to release its socket",
  );
  expect(client.socket.destroyed).toBe(false); // the client did not close: the simulator did
  client.socket.destroy();
}

/** Sends `sent` on a connection the client holds open: the simulator answers `status`, then closes it. */
async function expectAnsweredThenClosed(sim: RunningSimulator, sent: string, status: number): Promise<void> {
  const before = tcpHandles();
  const client = await holdOpen(sim, sent);
  await until(() => (client.received() !== "" ? true : undefined), CLOSE_DEADLINE_MS, `the ${status}`);
  expect(client.received()).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  await expectClosedBySimulator(client, before);
}

const host = (sim: RunningSimulator): string => new URL(sim.baseUrl).host;

describe("the simulator closes connections it has answered for the last time", () => {
  it("after a 408 to a client that sent nothing", async () => {
    await expectAnsweredThenClosed(await startSim({ headersTimeoutMs: 300 }), "", 408);
  });

  it("after a 400 for a request line it cannot parse", async () => {
    await expectAnsweredThenClosed(await startSim(), "GARBAGE\r\n\r\n", 400);
  });

  it("after answering a GET whose declared 1,000,000-byte body trickles in (and says Connection: close)", async () => {
    const sim = await startSim();
    const before = tcpHandles();
    const client = await holdOpen(
      sim,
      `GET / HTTP/1.1\r\nHost: ${host(sim)}\r\nContent-Length: 1000000\r\n\r\nabc`,
    );
    await until(
      () => (client.received().includes("\r\n\r\n") ? true : undefined),
      CLOSE_DEADLINE_MS,
      "the 200",
    );
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received().toLowerCase()).toContain("connection: close");
    client.socket.write("more of the body");
    await expectClosedBySimulator(client, before);
  });

  it("keeps a connection whose request was read whole (keep-alive still works)", async () => {
    const sim = await startSim();
    const client = await holdOpen(sim, `GET / HTTP/1.1\r\nHost: ${host(sim)}\r\n\r\n`);
    await until(
      () => (client.received().includes("\r\n\r\n") ? true : undefined),
      CLOSE_DEADLINE_MS,
      "the 200",
    );
    client.socket.write(`GET / HTTP/1.1\r\nHost: ${host(sim)}\r\n\r\n`);
    await until(
      () => (client.received().split("HTTP/1.1 200").length === 3 ? true : undefined),
      CLOSE_DEADLINE_MS,
      "the second 200 on the same connection",
    );
    expect(client.ended()).toBe(false);
    client.socket.destroy();
  });
});
