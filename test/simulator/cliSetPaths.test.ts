/**
 * `trigger --set a.b=value`: nested overrides of each event's payload (as `stripe trigger --override`), to a
 * real receiver over loopback; a path that does not fit the payload exits 2 naming the flag, the path and the
 * fix; an integer the JSON number would change (beyond 2^53) is refused before anything is sent.
 */
import { describe, expect, it } from "vitest";
import { setAssignments } from "../../simulator/cliSet";
import { EXIT_ACCEPTED, EXIT_INVALID_EVENT, parseClientCommand } from "../../simulator/cliTrigger";
import type { RunningSimulator } from "../../simulator/index";
import { api, type CommandRun, runTrigger, startSim, subs } from "./helpers";
import { useReceiver } from "./httpsReceiver";

const receiver = useReceiver();

async function subscribed(): Promise<RunningSimulator> {
  const sim = await startSim({ deliveryCa: receiver.ca.caPem, switches: { deliveryBackoffMs: 0 } });
  await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["shipment_status_change", `${receiver.url}/s`]),
  });
  return sim;
}

/** `trigger shipment_status_change <args>` against `sim`. */
const trigger = (sim: RunningSimulator, args: string[]): Promise<CommandRun> =>
  runTrigger(sim, ["shipment_status_change", ...args]);

describe("trigger --set with a path", () => {
  it("sets nested values in the delivered event, creating the objects on the way", async () => {
    const sim = await subscribed();
    const run = await trigger(sim, [
      "--set",
      "data.x=5",
      "--set",
      "meta.source=app",
      "--set",
      "meta.tags=[]",
      "--set",
      "meta.tags.0=a",
    ]);
    expect(run.status).toBe(EXIT_ACCEPTED);
    const event = (JSON.parse(receiver.arrivals[0]?.text ?? "{}") as { data: { hooks: object[] } }).data
      .hooks[0];
    expect(event).toMatchObject({ status: 3, data: { x: 5 }, meta: { source: "app", tags: ["a"] } });
  });

  it.each<[string, RegExp]>([
    [
      "barcode.x=1",
      /set\.barcode\.x: barcode is "3SSIM\d+", and a path goes on only through an object or an array; set barcode itself/,
    ],
    [
      "shipment_id.x=1",
      /set\.shipment_id\.x: shipment_id is the event's own field, checked as a whole .*; set it whole, e.g\. shipment_id=77/,
    ],
    [
      "data.hooks.0.status=4",
      /set\.data\.hooks\.0\.status: names the delivery's envelope .*drop "data\.hooks\.0\." \(e\.g\. status\)/,
    ],
    ["meta..x=1", /set\.meta\.\.x: must be a field name .* or a path/],
  ])("--set %s exits 2 naming the flag, the path and the fix", async (item, problem) => {
    const sim = await subscribed();
    const run = await trigger(sim, ["--set", item]);
    expect(run.status).toBe(EXIT_INVALID_EVENT);
    expect(run.lines[0]).toMatch(/^not sent: invalid event: /);
    expect(run.lines[0]).toMatch(problem);
    expect(run.lines[1]).toBe(`  from the flag --set ${item}: change or drop it`);
    expect(receiver.arrivals).toEqual([]);
  });
});

describe("a JSON number in --set that the parse would change", () => {
  it("is refused naming the flag, the number it would become and the fix, before anything is sent", () => {
    expect(() =>
      parseClientCommand("trigger", ["shipment_status_change", "--set", "shipment_id=9007199254740993"], {}),
    ).toThrow(
      `--set shipment_id=9007199254740993: 9007199254740993 is an integer beyond 2^53, which a JSON number here holds only as 9007199254740992: it would be sent as that other number; give at most 9007199254740991, or send the digits as a string: --set 'shipment_id="9007199254740993"'`,
    );
  });

  it.each<[string, string | undefined]>([
    ["n=9007199254740991", undefined],
    ["n=-9007199254740991", undefined],
    ["n=9007199254740992", undefined],
    ["n=9007199254740993", "9007199254740993 is an integer beyond 2^53"],
    ["n=12345678901234567890", "holds only as 12345678901234567168"],
    ["n=1e300", undefined],
    ['n="9007199254740993"', undefined],
    ["n=0.1", undefined],
    ["n=1.0", undefined],
    ["n=1.5E+2", undefined],
    ["n=-0", undefined],
    ['meta={"s":"1e400","ids":[1,2.5,"9007199254740993"]}', undefined],
    // A number the parse changes, wherever it is in the value: refused naming its path and the quoted fix.
    [
      "weight=1e400",
      `1e400 is beyond the largest JSON number here (1.7976931348623157e+308): it would be sent as null; send the digits as a string: --set 'weight="1e400"'`,
    ],
    [
      "shipment_id=1e400",
      `it would be sent as null; send the digits as a string: --set 'shipment_id="1e400"'`,
    ],
    ["n=-1e400", `it would be sent as null; send the digits as a string: --set 'n="-1e400"'`],
    [
      "n=9007199254740993.0",
      `9007199254740993.0 is held by a JSON number here only as 9007199254740992: it would be sent as that other number; send the digits as a string: --set 'n="9007199254740993.0"'`,
    ],
    ["n=9.007199254740993e15", `only as 9007199254740992: it would be sent as that other number`],
    ["n=1e-400", `1e-400 is held by a JSON number here only as 0`],
    ["n=0.10000000000000000001", `only as 0.1`],
    [
      'meta={"id":12345678901234567890}',
      `: meta.id: 12345678901234567890 is an integer beyond 2^53, which a JSON number here holds only as 12345678901234567168: it would be sent as that other number; give at most 9007199254740991, or send the digits as a string: --set 'meta={"id":"12345678901234567890"}'`,
    ],
    [
      "ids=[9007199254740993]",
      `: ids.0: 9007199254740993 is an integer beyond 2^53, which a JSON number here holds only as 9007199254740992: it would be sent as that other number; give at most 9007199254740991, or send the digits as a string: --set 'ids=["9007199254740993"]'`,
    ],
    [
      'a={"s":"1e999","b":[1, {"c":[2,1e999]}]}',
      `: a.b.1.c.1: 1e999 is beyond the largest JSON number here (1.7976931348623157e+308): it would be sent as null; send the digits as a string: --set 'a={"s":"1e999","b":[1, {"c":[2,"1e999"]}]}'`,
    ],
  ])("--set %s", (item, problem) => {
    const parse = () => parseClientCommand("trigger", ["shipment_status_change", "--set", item], {});
    const assign = () => setAssignments([item], "name=value");
    if (problem === undefined) {
      expect(parse).not.toThrow();
      expect(assign).not.toThrow();
    } else {
      expect(parse).toThrow(`--set ${item}: `);
      expect(parse).toThrow(problem);
      expect(assign).toThrow(problem);
    }
  });

  it("sends the numbers it keeps as JSON.parse reads them", () => {
    expect(
      setAssignments(["n=1.0", "m=1e300", 'meta={"ids":[9007199254740992,"9007199254740993"]}'], "x"),
    ).toEqual({
      n: 1,
      m: 1e300,
      meta: { ids: [9007199254740992, "9007199254740993"] },
    });
  });
});
