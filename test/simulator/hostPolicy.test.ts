/**
 * The Host policy on every path (review of issue 29's simulator, defect 4): a page that rebinds its own DNS
 * name to 127.0.0.1 reaches the API as a same-origin page; so the API paths, as /__sim/, answer only a Host
 * that names loopback or a name the simulator was started with (`allowedHosts`, `--allow-host`).
 */
import { describe, expect, it } from "vitest";
import { parseCli } from "../../simulator/cliArgs";
import { InvalidInputError, startSimulator } from "../../simulator/index";
import { api, auth, call, expectErrorShape, startSim, subs } from "./helpers";

const A = "https://example.com/a";
const B = "https://attacker.example/b";
const portOf = (baseUrl: string): string => new URL(baseUrl).port;

describe("Host policy on the API paths", () => {
  it("refuses a rebound name on writes and reads, with the key; changes nothing; logs the 403", async () => {
    const sim = await startSim();
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    const rebound = `rebind.attacker.example:${portOf(sim.baseUrl)}`;
    const headers = { host: rebound, origin: `http://${rebound}`, authorization: auth() };
    const write = await call(sim.baseUrl, "POST", "/webhook_subscriptions", {
      headers,
      body: subs(["order_status_change", B]),
    });
    expect(write.status).toBe(403);
    expect(expectErrorShape(write).message).toMatch(/Host "rebind\.attacker\.example:\d+".*--allow-host/);
    const read = await call(sim.baseUrl, "GET", "/webhook_subscriptions", { headers });
    expect(read.status).toBe(403);
    expect((await call(sim.baseUrl, "GET", "/", { headers: { host: rebound } })).status).toBe(403);
    expect(sim.subscriptions("demo").map((s) => s.url)).toEqual([A]);
    expect(
      sim
        .requests()
        .slice(-3)
        .map((r) => r.status),
    ).toEqual([403, 403, 403]);
  });

  it("answers the loopback names the project's clients use", async () => {
    const sim = await startSim();
    const port = portOf(sim.baseUrl);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      "localhost",
      `[::1]:${port}`,
      "127.0.0.2",
    ]) {
      const reply = await call(sim.baseUrl, "GET", "/webhook_subscriptions", {
        headers: { host, authorization: auth() },
      });
      expect([host, reply.status]).toEqual([host, 200]);
    }
  });

  it("answers a name given in allowedHosts on every path, and no other", async () => {
    const sim = await startSim({ allowedHosts: ["Sim.Internal", "shipping-sim"] });
    const port = portOf(sim.baseUrl);
    const host = `sim.internal:${port}`;
    const write = await call(sim.baseUrl, "POST", "/webhook_subscriptions", {
      headers: { host, authorization: auth() },
      body: subs(["order_status_change", A]),
    });
    expect(write.status).toBe(200);
    expect(
      (await call(sim.baseUrl, "GET", "/__sim/state", { headers: { host: "shipping-sim" } })).status,
    ).toBe(200);
    const other = await call(sim.baseUrl, "GET", "/__sim/state", { headers: { host: `other:${port}` } });
    expect(other.status).toBe(403);
    expect(expectErrorShape(other).message).toMatch(/or to sim\.internal, shipping-sim/);
  });

  it("takes --allow-host on the command line and refuses what is no host name", async () => {
    const command = parseCli(["--allow-host", "sim", "--allow-host", "ci-sim.local"]);
    expect(command.help === false && command.options.allowedHosts).toEqual(["sim", "ci-sim.local"]);
    // startSimulator itself, not startSim: the start is what must fail.
    await expect(startSimulator({ allowedHosts: ["http://sim:4010"] })).rejects.toThrow(InvalidInputError);
    await expect(startSimulator({ allowedHosts: ["sim:4010"] })).rejects.toThrow(/allowedHosts: "sim:4010"/);
  });
});
