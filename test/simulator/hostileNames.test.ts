/**
 * Shop names that are also names of Object.prototype members (`__proto__`, `constructor`...) are ordinary
 * names: they survive memory, the control listing, the data file and a restart.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator/index";
import { call, startSim, subs } from "./helpers";

const A = "https://example.com/a";
const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
const SHOPS = NAMES.map((name, i) => ({ name, keys: { readWrite: [`hostile-key-${i}`] } }));

function authOf(i: number): Record<string, string> {
  return { authorization: `bearer ${Buffer.from(`hostile-key-${i}`).toString("base64")}` };
}

/** Own entries of `shops`, by name, as `{name: ids}` built without assignment (so `__proto__` stays a key). */
function idsByShop(shops: Record<string, Array<{ id: number }>>): Array<[string, number[]]> {
  return Object.entries(shops)
    .map(([name, subs]): [string, number[]] => [name, subs.map((s) => s.id)])
    .sort(([a], [b]) => a.localeCompare(b));
}

const expected = NAMES.map((name, i): [string, number[]] => [name, [i + 1]]).sort(([a], [b]) =>
  a.localeCompare(b),
);

describe("shops named after Object.prototype members", () => {
  it("survive memory, GET /__sim/state, the data file and a restart", async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), "sim-names-")), "state.json");
    // By hand, not startSim: its own shops and data file, closed mid-test to restart from the file.
    const first = await startSimulator({ dataFile, shops: SHOPS });
    for (const [i] of NAMES.entries()) {
      const reply = await call(first.baseUrl, "POST", "/webhook_subscriptions", {
        headers: authOf(i),
        body: subs(["order_status_change", A]),
      });
      expect(reply.status).toBe(200);
    }
    for (const [i, name] of NAMES.entries())
      expect(first.subscriptions(name).map((s) => s.id)).toEqual([i + 1]);
    expect(idsByShop(first.state().shops)).toEqual(expected);
    const listed = (await call(first.baseUrl, "GET", "/__sim/state")).json as {
      shops: Record<string, Array<{ id: number }>>;
    };
    expect(idsByShop(listed.shops)).toEqual(expected);
    const onDisk = JSON.parse(readFileSync(dataFile, "utf8")) as {
      shops: Record<string, Array<{ id: number }>>;
    };
    expect(idsByShop(onDisk.shops)).toEqual(expected);
    await first.close();

    const second = await startSim({ dataFile, shops: SHOPS });
    expect(idsByShop(second.state().shops)).toEqual(expected);
    const reply = await call(second.baseUrl, "GET", "/webhook_subscriptions", { headers: authOf(0) });
    expect(reply.json).toMatchObject({ data: { webhook_subscriptions: [{ id: 1, url: A }] } });
  });

  it("a data file holding them, for shops the seed does not know, loads them and keeps them", async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), "sim-names-")), "state.json");
    const shops = NAMES.map(
      (name, i) => `"${name}":[{"id":${i + 1},"hook":"order_status_change","url":"${A}"}]`,
    );
    writeFileSync(dataFile, `{"version":1,"nextId":${NAMES.length + 1},"shops":{${shops.join(",")}}}`);
    const sim = await startSim({ dataFile });
    expect(idsByShop(sim.state().shops)).toEqual(
      [...expected, ["demo", []]].sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
    await call(sim.baseUrl, "POST", "/webhook_subscriptions", {
      headers: { authorization: `bearer ${Buffer.from("sim_demo_rw").toString("base64")}` },
      body: subs(["order_status_change", A]),
    });
    const onDisk = JSON.parse(readFileSync(dataFile, "utf8")) as {
      shops: Record<string, Array<{ id: number }>>;
    };
    expect(idsByShop(onDisk.shops)).toEqual(
      [...expected, ["demo", [NAMES.length + 1]] as [string, number[]]].sort(([a], [b]) =>
        a.localeCompare(b),
      ),
    );
  });

  it("a request header named __proto__ is kept in the request log", async () => {
    const sim = await startSim();
    // Built from entries: an object literal's `__proto__:` would set the prototype instead of a key.
    const headers = Object.fromEntries([
      ["__proto__", "kept"],
      ["constructor", "also"],
    ]);
    await call(sim.baseUrl, "GET", "/", { headers });
    const entry = sim.requests()[0];
    const own = Object.entries(entry?.headers ?? {}).filter(
      ([name]) => name === "__proto__" || name === "constructor",
    );
    expect(own).toEqual([
      ["__proto__", "kept"],
      ["constructor", "also"],
    ]);
  });
});
