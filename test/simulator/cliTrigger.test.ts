/**
 * `shipping-api-sim trigger` and `resend` against the built CLI running as a simulator, delivering to an
 * HTTPS receiver of this process; and the delivery switch flags.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../../simulator/cliArgs";
import { DEFAULT_SIM_URL, parseClientCommand, URL_ENV } from "../../simulator/cliTrigger";
import { api, call, eventually, subs } from "./helpers";
import { startReceiver, type TestReceiver } from "./httpsReceiver";
import { CLI, killHard, ROOT, type SimProcess, startSimProcess } from "./simProcess";

/** Longest a trigger may take here, in milliseconds. */
const RUN_DEADLINE_MS = 20_000;

/** Run the CLI to its end, asynchronously (the receiver answers from this process). */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, [URL_ENV]: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`shipping-api-sim ${args.join(" ")} did not end within ${RUN_DEADLINE_MS} ms: ${out}`),
      );
    }, RUN_DEADLINE_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

let receiver: TestReceiver;
let sim: SimProcess;

beforeAll(async () => {
  receiver = await startReceiver();
  const ca = join(mkdtempSync(join(tmpdir(), "sim-trigger-")), "ca.pem");
  writeFileSync(ca, receiver.ca.caPem);
  sim = await startSimProcess([
    "--delivery-ca",
    ca,
    "--delivery-backoff-ms",
    "0",
    "--delivery-attempts",
    "2",
  ]);
  const reply = await api({ baseUrl: sim.baseUrl } as never, "POST", "/webhook_subscriptions", {
    body: subs(
      ["order_status_change", `${receiver.url}/orders`],
      ["shipment_status_change", `${receiver.url}/s`],
    ),
  });
  expect(reply.status).toBe(200);
});

afterAll(async () => {
  await killHard(sim);
  await receiver.close();
});

beforeEach(() => {
  receiver.arrivals.length = 0;
  receiver.script.length = 0;
});

describe("trigger and resend", () => {
  it("trigger sends the hook's fixture with --set, prints each attempt and exits 0 when accepted", async () => {
    receiver.script.push({ status: 503, body: "busy" });
    const { code, out } = await runCli(
      [
        "trigger",
        "shipment_status_change",
        "--set",
        "shipment_id=77",
        "--set",
        "order_id=ord-1",
        "--set",
        'carrier="x"',
      ],
      { [URL_ENV]: sim.baseUrl },
    );
    expect(out).toMatch(
      /^sent 1 shipment_status_change event\(s\) of shop demo to https:\/\/127\.0\.0\.1:\d+\/s$/m,
    );
    expect(out).toMatch(/attempt 1\/2: 503 refused \(\d+ ms\); retry in 0 ms\n {4}answer: busy\n/);
    expect(out).toMatch(/attempt 2\/2: 200 accepted/);
    expect(out).toContain("accepted by the receiver");
    expect(code).toBe(0);
    const hooks = receiver.arrivals.map((a) => JSON.parse(a.text).data.hooks[0]);
    expect(hooks[1]).toMatchObject({
      shipment_id: 77,
      order_id: "ord-1",
      carrier: "x",
      barcode: "3SSIM0000000077",
    });
    const line = await eventually(
      async () => sim.stdout().match(/^delivery .*attempt 2\/2: 200 accepted.*$/m)?.[0],
    );
    expect(line).toContain("shipment_status_change shop=demo id=");
  });

  it("resend sends the same delivery id and body again; exits 1 when the receiver refuses", async () => {
    const first = await runCli(["trigger", "order_status_change", "--url", sim.baseUrl]);
    expect(first.code).toBe(0);
    const id = String(receiver.arrivals[0]?.headers["x-shipping-delivery-id"]);
    receiver.script.push({ status: 500 }, { status: 500 });
    const again = await runCli(["resend", id, "--url", sim.baseUrl]);
    expect(again.out).toContain(`sent delivery ${id}`);
    expect(again.out).toContain("[resend]");
    expect(again.out).toContain("not accepted");
    expect(again.code).toBe(1);
    expect(receiver.arrivals.map((a) => a.headers["x-shipping-delivery-id"])).toEqual([id, id, id]);
    expect(new Set(receiver.arrivals.map((a) => a.text)).size).toBe(1);
  });

  it("says why nothing was sent, and what is wrong with an event", async () => {
    const none = await runCli(["trigger", "shipment_label_created", "--url", sim.baseUrl]);
    expect(none.out).toContain('not sent: shop "demo" has no subscription for hook "shipment_label_created"');
    expect(none.code).toBe(1);
    const bad = await runCli([
      "trigger",
      "order_status_change",
      "--set",
      "status=done",
      "--url",
      sim.baseUrl,
    ]);
    expect(bad.out).toMatch(/not sent: invalid event: set\.status: must be one of open, /);
    expect(bad.code).toBe(2);
    const down = await runCli(["trigger", "order_status_change", "--url", "http://127.0.0.1:1"]);
    expect(down.out).toContain("cannot reach the simulator at http://127.0.0.1:1");
    expect(down.code).toBe(1);
  });
});

describe("parsing", () => {
  it("sends every field in set (the simulator maps the event's own); values as JSON when they parse", () => {
    const command = parseClientCommand(
      "trigger",
      [
        "shipment_label_created",
        "--set",
        "shipment_ids=[1,2]",
        "--set",
        "status=failed",
        "--set",
        "pdf=null",
        "--count",
        "3",
      ],
      {},
    );
    expect(command).toEqual({
      baseUrl: DEFAULT_SIM_URL,
      path: "/__sim/events",
      what: "event",
      events: 3,
      body: {
        kind: "shipment_label_created",
        count: 3,
        set: { shipment_ids: [1, 2], status: "failed", pdf: null },
      },
      setFlags: ["shipment_ids=[1,2]", "status=failed", "pdf=null"],
      delayMs: 0,
    });
    expect(parseClientCommand("resend", ["abc"], { [URL_ENV]: "http://localhost:9" }).baseUrl).toBe(
      "http://localhost:9",
    );
    // A simulator reached by another name (a CI service container); it answers when started with --allow-host.
    expect(
      parseClientCommand("trigger", ["order_status_change", "--url", "http://sim:4010"], {}).baseUrl,
    ).toBe("http://sim:4010");
  });

  it.each([
    [["trigger"], "trigger takes one hook"],
    [["trigger", "nope"], "trigger <hook> must be one of"],
    [["trigger", "order_status_change", "--set", "novalue"], "--set takes field=value"],
    [["trigger", "order_status_change", "--count", "0"], "--count must be an integer from 1 to 100"],
    [["trigger", "order_status_change", "--url", "https://sim:4010"], "--url"],
    [["trigger", "order_status_change", "--url", "http://u:p@sim:4010"], "without user name or password"],
    [["trigger", "order_status_change", "--bogus"], "--bogus"],
    [["resend"], "resend takes one delivery id"],
  ])("refuses %j naming the problem", (argv, message) => {
    const [name, ...rest] = argv as ["trigger" | "resend", ...string[]];
    expect(() => parseClientCommand(name, rest, {})).toThrow(UsageError);
    expect(() => parseClientCommand(name, rest, {})).toThrow(message);
  });

  it("reads every delivery switch from its flag", () => {
    const flags = ["--delivery-attempts", "5", "--delivery-backoff-ms", "0", "--delivery-failure", "5xx"];
    const more = ["--delivery-timeout-ms", "250", "--duplicates", "0.5", "--duplicate-id", "new"];
    const last = ["--events-per-delivery", "1", "--event-field", "included"];
    expect(parseCli([...flags, ...more, ...last])).toEqual({
      help: false,
      options: {
        port: 4010,
        switches: {
          deliveryAttempts: 5,
          deliveryBackoffMs: 0,
          deliveryFailure: "5xx",
          deliveryTimeoutMs: 250,
          deliveryDuplicates: 0.5,
          duplicateDeliveryId: "new",
          eventsPerDelivery: 1,
          eventField: "included",
        },
      },
    });
    for (const [flag, value] of [
      ["--delivery-attempts", "11"],
      ["--duplicates", "2"],
      ["--delivery-failure", "4xx"],
    ]) {
      expect(() => parseCli([flag as string, value as string])).toThrow(flag);
    }
  });

  it("the running simulator took the flags", async () => {
    const switches = (await call(sim.baseUrl, "GET", "/__sim/switches")).json as Record<string, unknown>;
    expect(switches).toMatchObject({ deliveryAttempts: 2, deliveryBackoffMs: 0 });
  });
});
