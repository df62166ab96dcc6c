/**
 * A hook handed on in one `up` (docs/safety.md, "Taking over a subscription made outside the stack"): `a` takes
 * another hook, `b` takes `a`'s at another URL. When the engine checked and diffed `a` first in the same provider
 * process, `b` is the stack's own and is not refused. What `a`'s diff tells its process is not shared with
 * another (the TypeScript class's and the plugin's resource, or two providers): there `b` is refused before any
 * write, the message says why (another provider process) and the way out, and `takeOver: true` takes it.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { checkFailures, deployment } from "../support/deploymentProcesses";
import { ORDERS, SHIPMENTS } from "../support/services";

const acme = useAcmeSimulator();
const A_URL = "https://hooks.example.com/a";
const B_URL = "https://hooks.example.com/b";
const URN_B = "urn:pulumi:dev::p::shipping:index:WebhookSubscription::b";

/** The first `up`: `a` subscribes ORDERS. */
async function firstUp() {
  const host = await deployment().process(acme.config);
  const { inputs } = await checkFailures(host, {}, { hook: ORDERS, url: A_URL });
  const { id, outs } = await host.create(inputs);
  return { id, inputs, outs: outs as unknown as Record<string, unknown> };
}

describe("a hook handed on from a resource the engine checked first", () => {
  it.each([
    ["in the same provider process: b is the stack's own", true, []],
    [
      "in another provider process: b is refused, naming why and the way out",
      false,
      [expect.stringMatching(/^hook: .*another provider process: set `takeOver: true` here/)],
    ],
  ])("%s", async (_name, oneProcess, failures) => {
    const a = await firstUp();
    const next = deployment();
    const dynamicHost = await next.process(acme.config);
    const plugin = oneProcess ? dynamicHost : await next.process(acme.config);
    const checkedA = await checkFailures(dynamicHost, a.inputs, { hook: SHIPMENTS, url: A_URL });
    expect((await dynamicHost.diff(a.id, a.outs, checkedA.inputs)).replaces).toEqual(["hook"]);
    const b = { hook: ORDERS, url: B_URL };
    expect((await checkFailures(plugin, {}, b, URN_B)).failures).toEqual(failures);
    expect((await checkFailures(plugin, {}, { ...b, takeOver: true }, URN_B)).failures).toEqual([]);
    expect(acme.liveHooks()).toEqual([`${ORDERS}=${A_URL}`]);
  });
});
