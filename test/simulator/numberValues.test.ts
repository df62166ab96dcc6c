/**
 * Issue 36 item 8: numbers JSON.parse cannot hold are described as such, never shown as another value: a hook
 * of `1e99999` was said to be null, and a shipment_id of 2^53 + 1 was reported as 2^53.
 */
import { describe, expect, it } from "vitest";
import { describeValue } from "../../simulator/jsonText";
import { api, call, expectErrorShape, startSim } from "./helpers";

describe("describeValue of numbers", () => {
  it.each([
    [12, "12"],
    [-0.5, "-0.5"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    [Number.POSITIVE_INFINITY, "a number too large for a double (read as Infinity)"],
    [Number.NEGATIVE_INFINITY, "a number too large for a double (read as -Infinity)"],
    [2 ** 53, "a number beyond 2^53 (read as 9007199254740992, not necessarily the digits sent"],
  ])("%s is described as %j", (value, text) => {
    expect(describeValue(value)).toContain(text);
  });
});

describe("over HTTP", () => {
  it('a hook of 1e99999 is "a number too large", not null', async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: '{"data":{"webhook_subscriptions":[{"hook":1e99999,"url":"https://example.com/a"}]}}',
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(422);
    const message = expectErrorShape(reply).message;
    expect(message).toContain("hook is a number too large for a double (read as Infinity)");
    expect(message).not.toContain("is null");
  });

  it("a shipment_id of 2^53 + 1 is said to be beyond 2^53, not reported as 2^53 alone", async () => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
      body: '{"kind":"shipment_status_change","set":{"shipment_id":9007199254740993}}',
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(422);
    expect(expectErrorShape(reply).message).toContain("got a number beyond 2^53");
  });
});
