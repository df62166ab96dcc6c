/** The `requireUserAgent` switch: the spec's `User-Agent: CustomApiCall/2`, enforced only when asked. */
import { describe, expect, it } from "vitest";
import { parseCli } from "../../simulator/cliArgs";
import { auth, call, expectErrorShape, startSim } from "./helpers";

const LIST = "/webhook_subscriptions";

describe("requireUserAgent", () => {
  it("is off by default: any User-Agent, or none, is served", async () => {
    const sim = await startSim();
    expect(sim.switches().requireUserAgent).toBe(false);
    for (const agent of ["", "curl/8.5.0"]) {
      const reply = await call(sim.baseUrl, "GET", LIST, {
        headers: { authorization: auth(), "user-agent": agent },
      });
      expect(reply.status).toBe(200);
    }
  });

  it.each([
    ["empty", "", /\(it is missing\)/],
    ["another product", "curl/8.5.0", /\(got "curl\/8\.5\.0"\)/],
    ["another version", "CustomApiCall/1", /\(got "CustomApiCall\/1"\)/],
    ["a longer version", "CustomApiCall/20", /\(got "CustomApiCall\/20"\)/],
  ])("when on, %s is a 400 naming the header and the fix", async (_name, agent, got) => {
    const sim = await startSim({ switches: { requireUserAgent: true } });
    const headers: Record<string, string> = { authorization: auth() };
    const reply = await call(sim.baseUrl, "GET", LIST, { headers: { ...headers, "user-agent": agent } });
    expect(reply.status).toBe(400);
    const item = expectErrorShape(reply);
    expect(item.message).toMatch(/send "User-Agent: CustomApiCall\/2"/);
    expect(item.message).toMatch(got);
  });

  it("when on, CustomApiCall/2 (any case, with more products) is served; GET / needs none", async () => {
    const sim = await startSim();
    const patched = await call(sim.baseUrl, "PATCH", "/__sim/switches", { body: { requireUserAgent: true } });
    expect(patched.json).toMatchObject({ requireUserAgent: true });
    for (const agent of ["CustomApiCall/2", "customapicall/2 node/20"]) {
      const reply = await call(sim.baseUrl, "GET", LIST, {
        headers: { authorization: auth(), "user-agent": agent },
      });
      expect(reply.status).toBe(200);
    }
    expect((await call(sim.baseUrl, "GET", "/", { headers: { "user-agent": "" } })).status).toBe(200);
  });

  it("the CLI turns it on with --require-user-agent", () => {
    const command = parseCli(["--require-user-agent"]);
    expect(command).toMatchObject({ help: false, options: { switches: { requireUserAgent: true } } });
  });
});
