/**
 * Issue 36 item 7 (part): `deliveries` with filters instead of raw JSON, and `switches` to read or change the
 * switches from the command line instead of `curl -XPATCH /__sim/switches`.
 */
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../simulator/cliArgs";
import {
  type DeliveryFilter,
  deliveryMatches,
  parseInspectCommand,
  parseSince,
  runInspectCommand,
} from "../../simulator/cliInspect";
import { api, startSim, subs } from "./helpers";
import { startReceiver } from "./httpsReceiver";
import { CLI, ROOT } from "./simProcess";

const AT = "2026-11-27T14:00:00.000Z";
const ATTEMPT = {
  hook: "order_status_change" as const,
  shop: "demo",
  result: "refused" as const,
  status: 503,
  at: AT,
};

describe("deliveryMatches", () => {
  it.each<[string, DeliveryFilter, boolean]>([
    ["no filter", {}, true],
    ["its hook", { hook: "order_status_change" }, true],
    ["another hook", { hook: "shipment_status_change" }, false],
    ["its shop", { shop: "demo" }, true],
    ["another shop", { shop: "acme" }, false],
    ["its result", { result: "refused" }, true],
    ["another result", { result: "accepted" }, false],
    ["its status", { result: 503 }, true],
    ["another status", { result: 500 }, false],
    ["since before it", { sinceMs: Date.parse(AT) - 1 }, true],
    ["since its time", { sinceMs: Date.parse(AT) }, true],
    ["since after it", { sinceMs: Date.parse(AT) + 1 }, false],
    ["all that match", { hook: "order_status_change", shop: "demo", result: 503 }, true],
  ])("%s: %s", (_, filter, expected) => {
    expect(deliveryMatches(ATTEMPT, filter)).toBe(expected);
  });
});

describe("parseSince and the flags", () => {
  it.each<[string, number]>([
    ["30s", 1_000_000 - 30_000],
    ["10m", 1_000_000 - 600_000],
    ["0h", 1_000_000],
    [AT, Date.parse(AT)],
  ])("--since %s", (text, expected) => {
    expect(parseSince(text, 1_000_000)).toBe(expected);
  });

  it.each([
    [["deliveries", "--since", "yesterday"], "--since takes a duration"],
    [["deliveries", "--status", "maybe"], "--status takes accepted, refused, timeout, unreachable"],
    [["deliveries", "--hook", "nope"], "--hook must be one of"],
    [["switches", "--set", "novalue"], "--set takes name=value"],
    [["switches", "--bogus"], "--bogus"],
  ])("refuses %j naming the problem", (argv, message) => {
    const [name, ...rest] = argv as ["deliveries" | "switches", ...string[]];
    expect(() => parseInspectCommand(name, rest, {})).toThrow(UsageError);
    expect(() => parseInspectCommand(name, rest, {})).toThrow(message);
  });
});

describe("against a running simulator", () => {
  it("deliveries --status refused prints the refused attempts only, one line each, and the count", async () => {
    const receiver = await startReceiver();
    try {
      const sim = await startSim({ deliveryCa: receiver.ca.caPem, switches: { deliveryAttempts: 1 } });
      const created = await api(sim, "POST", "/webhook_subscriptions", {
        body: subs(["order_status_change", `${receiver.url}/orders`]),
      });
      expect(created.status).toBe(200);
      receiver.script.push({ status: 503 }, { status: 200 });
      await sim.emit({ kind: "order_status_change" });
      await sim.emit({ kind: "order_status_change" });
      const lines: string[] = [];
      const command = parseInspectCommand("deliveries", ["--status", "refused", "--url", sim.baseUrl], {});
      expect(await runInspectCommand(command, (line) => lines.push(line))).toBe(0);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^\S+Z order_status_change shop=demo id=\S+ -> 127\.0\.0\.1:\d+ attempt 1\/1: 503 refused/,
      );
      expect(lines[1]).toBe("1 of 2 attempts in the log");
    } finally {
      await receiver.close();
    }
  });

  it("switches --set changes them (JSON values and words), prints the result; a bad one exits 2 naming it", async () => {
    const sim = await startSim();
    const lines: string[] = [];
    const print = (line: string): number => lines.push(line);
    const url = ["--url", sim.baseUrl];
    const set = parseInspectCommand(
      "switches",
      ["--set", "deliveryAttempts=5", "--set", "deliveryFailure=5xx", ...url],
      {},
    );
    expect(await runInspectCommand(set, print)).toBe(0);
    expect(sim.switches()).toMatchObject({ deliveryAttempts: 5, deliveryFailure: "5xx" });
    expect(JSON.parse(lines.join("\n"))).toMatchObject({ deliveryAttempts: 5 });
    lines.length = 0;
    const bad = parseInspectCommand("switches", ["--set", "deliveryAttempts=99", ...url], {});
    expect(await runInspectCommand(bad, print)).toBe(2);
    expect(lines[0]).toMatch(/^refused: .*deliveryAttempts/);
    expect(sim.switches().deliveryAttempts).toBe(5);
  });
});

describe("the built CLI", () => {
  it("shipping-api-sim switches --url prints the switches and exits 0", async () => {
    const sim = await startSim();
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, "switches", "--url", sim.baseUrl],
        { cwd: ROOT, timeout: 20_000 },
        (error, stdout) =>
          resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), out: stdout }),
      );
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(sim.switches());
  });
});
