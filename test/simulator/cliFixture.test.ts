/**
 * Issue 36 item 7 (part): `trigger --fixture <file>`, an event read from a file (as `stripe fixtures`), with the
 * command line's hook and flags laid over it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../simulator/cliArgs";
import { overFixture } from "../../simulator/cliFixture";
import { EXIT_ACCEPTED, EXIT_INVALID_EVENT, parseClientCommand } from "../../simulator/cliTrigger";
import { api, runTrigger, startSim, subs } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();
const dir = mkdtempSync(join(tmpdir(), "sim-fixture-"));

function fixtureFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("overFixture", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]>([
    ["flags only", {}, { kind: "order_status_change" }, { kind: "order_status_change" }],
    [
      "fixture only",
      { kind: "order_status_change", count: 2 },
      {},
      { kind: "order_status_change", count: 2 },
    ],
    [
      "a flag wins",
      { kind: "order_status_change", shop: "a" },
      { shop: "b" },
      { kind: "order_status_change", shop: "b" },
    ],
    [
      "set merges, the flag's field wins",
      { set: { a: 1, b: 2 } },
      { set: { b: 3 } },
      { set: { a: 1, b: 3 } },
    ],
    ["unset joins", { unset: ["a"] }, { unset: ["b"] }, { unset: ["a", "b"] }],
  ])("%s", (_, fixture, flags, expected) => {
    expect(overFixture(fixture, flags)).toEqual(expected);
  });
});

describe("trigger --fixture", () => {
  it("reads the event from the file; a hook and --set on the command line are laid over it", () => {
    const file = fixtureFile(
      "order.json",
      '{"kind":"order_status_change","set":{"status":"open","note":"x"},"count":2}',
    );
    expect(parseClientCommand("trigger", ["--fixture", file], {}).body).toEqual({
      kind: "order_status_change",
      set: { status: "open", note: "x" },
      count: 2,
    });
    const over = parseClientCommand(
      "trigger",
      ["shipment_status_change", "--fixture", file, "--set", "note=y"],
      {},
    );
    expect(over.body).toEqual({
      kind: "shipment_status_change",
      set: { status: "open", note: "y" },
      count: 2,
    });
    expect(over.events).toBe(2);
  });

  it.each([
    ["missing.json", undefined, "cannot read the file"],
    ["bad.json", "{", "not JSON"],
    ["array.json", "[]", "must hold one event object"],
  ])("refuses %s naming the file", (name, text, message) => {
    const file = text === undefined ? join(dir, name) : fixtureFile(name, text);
    expect(() => parseClientCommand("trigger", ["--fixture", file], {})).toThrow(UsageError);
    expect(() => parseClientCommand("trigger", ["--fixture", file], {})).toThrow(message);
  });

  it("sends it to a running simulator: accepted (exit 0); a fixture the simulator refuses exits 2", async () => {
    const sim = await startSim({ deliveryCa: receiver.ca.caPem, switches: { deliveryAttempts: 1 } });
    const created = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", `${receiver.url}/order`]),
    });
    expect(created.status).toBe(200);
    const good = fixtureFile("good.json", '{"kind":"order_status_change","set":{"status":"cancelled"}}');
    expect((await runTrigger(sim, ["--fixture", good])).status).toBe(EXIT_ACCEPTED);
    expect(JSON.parse(receiver.arrivals[0]?.text ?? "{}").data.hooks[0].status).toBe("cancelled");
    const bad = fixtureFile("refused.json", '{"kind":"order_status_change","set":{"status":"bogus"}}');
    const refused = await runTrigger(sim, ["--fixture", bad]);
    expect(refused.status).toBe(EXIT_INVALID_EVENT);
    expect(refused.lines.at(-1)).toMatch(/^not sent: .*status/);
  });
});
