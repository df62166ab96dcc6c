/**
 * Issue 36 item 4: an explicit way to bind another address (`expose` / `--expose`) that keeps the Host
 * allowlist and the control endpoints' checks against web pages. The tests stay on loopback: an exposed
 * simulator is started on 127.0.0.1, and the rule for peers from other machines is a table.
 */
import { describe, expect, it } from "vitest";
import { parseCli } from "../../simulator/cliArgs";
import { controlPeerAllowed } from "../../simulator/controlGuard";
import { startSimulator } from "../../simulator/index";
import { auth, call, startSim } from "./helpers";

describe("binding another address is explicit", () => {
  it.each(["0.0.0.0", "::", "192.0.2.1"])(
    "host %s without expose is refused before anything binds",
    async (host) => {
      // startSimulator itself, not startSim: the start is what must fail.
      await expect(startSimulator({ host, port: 0 })).rejects.toThrow(
        /not a loopback address.*expose: true \(--expose\)/,
      );
    },
  );

  it("the CLI takes --expose with --host and --allow-host", () => {
    const parsed = parseCli(["--expose", "--host", "0.0.0.0", "--allow-host", "sim"]);
    expect(parsed).toMatchObject({
      help: false,
      options: { expose: true, host: "0.0.0.0", allowedHosts: ["sim"] },
    });
  });
});

describe("controlPeerAllowed", () => {
  it.each<[string | undefined, boolean, boolean]>([
    ["127.0.0.1", false, true],
    ["::1", false, true],
    ["::ffff:127.0.0.1", false, true],
    ["172.18.0.3", false, false],
    ["fd00::3", false, false],
    [undefined, false, false],
    ["172.18.0.3", true, true],
    ["fd00::3", true, true],
    ["127.0.0.1", true, true],
    [undefined, true, false],
  ])("peer %s, exposed %s: %s", (peer, exposed, allowed) => {
    expect(controlPeerAllowed(peer, exposed)).toBe(allowed);
  });
});

describe("an exposed simulator keeps its protections", () => {
  const hostHeader = (name: string, baseUrl: string): string => `${name}:${new URL(baseUrl).port}`;

  it("answers an allowed name and loopback, refuses any other Host (403), API and control alike", async () => {
    const sim = await startSim({ expose: true, host: "127.0.0.1", allowedHosts: ["sim"] });
    const as = (name: string) => ({ host: hostHeader(name, sim.baseUrl), authorization: auth() });
    expect((await call(sim.baseUrl, "GET", "/webhook_subscriptions", { headers: as("sim") })).status).toBe(
      200,
    );
    expect((await call(sim.baseUrl, "GET", "/__sim/switches", { headers: as("sim") })).status).toBe(200);
    expect((await call(sim.baseUrl, "GET", "/__sim/switches", { headers: as("127.0.0.1") })).status).toBe(
      200,
    );
    expect(
      (await call(sim.baseUrl, "GET", "/webhook_subscriptions", { headers: as("evil.example") })).status,
    ).toBe(403);
    expect((await call(sim.baseUrl, "POST", "/__sim/reset", { headers: as("evil.example") })).status).toBe(
      403,
    );
  });

  it("refuses a cross-site control request and a form body, as on loopback", async () => {
    const sim = await startSim({ expose: true, host: "127.0.0.1", allowedHosts: ["sim"] });
    const host = hostHeader("sim", sim.baseUrl);
    const crossSite = await call(sim.baseUrl, "POST", "/__sim/reset", {
      headers: { host, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const form = await call(sim.baseUrl, "POST", "/__sim/faults", {
      headers: { host, "content-type": "application/x-www-form-urlencoded" },
      body: "kind=status&status=500",
    });
    expect(form.status).toBe(415);
  });
});
