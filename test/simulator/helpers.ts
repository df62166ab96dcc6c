/** Shared helpers for the simulator tests: start/stop simulators, raw HTTP calls over loopback. */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { parseClientCommand, runClientCommand } from "../../simulator/cliTrigger";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../simulator/index";

/** The demo shop's read-write key (DEFAULT_SHOPS). */
export const RW_KEY = "sim_demo_rw";
/** The demo shop's read-only key (DEFAULT_SHOPS). */
export const RO_KEY = "sim_demo_ro";
/** The read-write key of the second shop of TWO_SHOPS. */
export const OTHER_KEY = "sim_other_rw";
/** Two shops, "demo" (as DEFAULT_SHOPS) and "other", for isolation tests. */
export const TWO_SHOPS = [
  { name: "demo", keys: { readWrite: [RW_KEY], readOnly: [RO_KEY] } },
  { name: "other", keys: { readWrite: [OTHER_KEY] } },
];

/** base64 of a key, as sent in Authorization. */
export const b64 = (key: string): string => Buffer.from(key, "utf8").toString("base64");
/** An Authorization header value. */
export const auth = (key: string = RW_KEY, scheme = "bearer"): string => `${scheme} ${b64(key)}`;

const running: RunningSimulator[] = [];

/** Start a simulator that is closed after the current test. */
export async function startSim(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator(options);
  running.push(sim);
  return sim;
}

/**
 * A simulator (closed after the current test) whose demo shop is subscribed to `pairs` (`[hook, url]`, given
 * ids from 1 in order) by a POST of the read-write key.
 */
export async function startSimWith(
  pairs: Array<[string, string]>,
  options: SimulatorOptions = {},
): Promise<RunningSimulator> {
  const sim = await startSim(options);
  await api(sim, "POST", "/webhook_subscriptions", { body: subs(...pairs) });
  return sim;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

/**
 * A simulator (closed after the test) whose data file's folder is removed once it started, and the answer to a
 * POST of one subscription then: every save from then on fails (ENOENT), this one first.
 */
export async function postAfterDataFolderGone(): Promise<{
  sim: RunningSimulator;
  dir: string;
  reply: Reply;
}> {
  const dir = await mkdtemp(join(tmpdir(), "sim-gone-"));
  const sim = await startSim({ dataFile: join(dir, "state.json") });
  rmSync(dir, { recursive: true });
  const reply = await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["order_status_change", "https://example.com/a"]),
  });
  return { sim, dir, reply };
}

/** A received answer. */
export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body (undefined when the body is empty). */
  json: unknown;
}

/** Options of `call`. */
interface CallOptions {
  headers?: Record<string, string>;
  /** Object = JSON with content-type application/json unless given; string/Buffer = sent as is. */
  body?: unknown;
  /** Abort after this many ms (the promise rejects with code "TIMEOUT"). */
  timeoutMs?: number;
}

/** Send one request on a fresh connection; rejects with the socket error if the connection fails. */
export function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const url = new URL(path, `${baseUrl}/`);
  const headers: Record<string, string> = { "user-agent": "CustomApiCall/2", ...options.headers };
  let payload: Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === "string" || Buffer.isBuffer(options.body))
      payload = Buffer.from(options.body);
    else {
      payload = Buffer.from(JSON.stringify(options.body));
      headers["content-type"] ??= "application/json; charset=utf-8";
    }
    headers["content-length"] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        method,
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: text === "" ? undefined : JSON.parse(text),
          });
        });
      },
    );
    req.on("error", reject);
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () =>
        req.destroy(Object.assign(new Error("client timeout"), { code: "TIMEOUT" })),
      );
    }
    req.end(payload);
  });
}

/** Expects `promise` (a request) to fail at the socket, and answers the error's code (or message). */
export function socketError(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    (reply) => {
      throw new Error(`expected a socket error, got ${JSON.stringify(reply)}`);
    },
    (error: NodeJS.ErrnoException) => error.code ?? error.message,
  );
}

/** The API with the demo read-write key (bearer) unless headers say otherwise. */
export function api(
  sim: RunningSimulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  return call(sim.baseUrl, method, path, {
    ...options,
    headers: { authorization: auth(), ...options.headers },
  });
}

/** A POST body for the given [hook, url] pairs. */
export function subs(...pairs: Array<[string, string]>): unknown {
  return { data: { webhook_subscriptions: pairs.map(([hook, url]) => ({ hook, url })) } };
}

/** The error body shape. */
interface ErrorReply {
  message: string;
  request_id: string;
  errors: Array<{ status: number; code: number; title: string; message: string }>;
}

/** Assert-free accessor: the reply as an error body. */
export const errorOf = (reply: Reply): ErrorReply => reply.json as ErrorReply;

/** Check the production error shape and answer its first item. */
export function expectErrorShape(reply: Reply): ErrorReply["errors"][number] {
  const body = errorOf(reply);
  if (typeof body.request_id !== "string" || !body.message.endsWith(`(request_id: ${body.request_id})`)) {
    throw new Error(`not an error body: ${reply.text}`);
  }
  if (reply.headers["x-request-id"] !== body.request_id)
    throw new Error(`x-request-id differs from request_id: ${reply.text}`);
  const first = body.errors[0];
  if (first === undefined || first.status !== reply.status)
    throw new Error(`errors[0] missing or wrong status: ${reply.text}`);
  return first;
}

/** Poll `check` until it returns a value other than undefined, or fail after `timeoutMs`. */
export async function until<T>(
  check: () => T | undefined,
  timeoutMs = 5_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Poll the async `check` until it answers a value other than undefined, or fail after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** How a CLI command run in this process ended: its exit status and the lines it printed. */
export interface CommandRun {
  readonly status: number;
  readonly lines: string[];
}

/** `shipping-api-sim trigger <args> --url <sim's URL>`, run in this process as the CLI runs it. */
export async function runTrigger(sim: RunningSimulator, args: readonly string[]): Promise<CommandRun> {
  const lines: string[] = [];
  const command = parseClientCommand("trigger", [...args, "--url", sim.baseUrl], {});
  const status = await runClientCommand(command, (line) => lines.push(line));
  return { status, lines };
}
