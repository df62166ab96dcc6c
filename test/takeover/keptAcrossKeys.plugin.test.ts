/**
 * test/takeover/keptAcrossKeys.test.ts through the official CLI and the provider plugin: a resource kept
 * unchanged under the default provider (acme's key), and the removal of a resource of the same hook and URL
 * under an explicit provider with acme's second key (the service lists `shop_id`; new-id overwrite). The
 * removed resource's delete, in the other provider process, leaves the hook subscribed; refresh records it for
 * the kept resource. Judged by the simulator's live subscriptions and the stack's state.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import {
  explicitProviderSource,
  pluginProgram,
  pluginResource,
  usePluginSimulator,
} from "../support/pluginProject";
import { ORDERS } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY } from "../support/shops";

const plugin = usePluginSimulator();
const URL = "https://hooks.example.com/orders";

/** An explicit provider of acme's second key (stack config `other:key`). */
const EXPLICIT = explicitProviderSource("other:key");

const K_ONLY = pluginProgram(pluginResource("k", `hook: "${ORDERS}", url: "${URL}"`));
/** d through the explicit provider, and k after it: the order in which the engine creates d first. */
const D_THEN_K = pluginProgram(
  `${EXPLICIT}const d = ${pluginResource("d", `hook: "${ORDERS}", url: "${URL}"`, "provider: explicit")}` +
    pluginResource("k", `hook: "${ORDERS}", url: "${URL}"`, "dependsOn: [d]"),
);

describe("under the plugin, a resource kept unchanged and one removed under another key of the shop", () => {
  it("at the same URL, k's record stale: removing d as its refusal says leaves the hook subscribed; refresh records it for k", async () => {
    const project = await plugin.project("kept-across-keys", K_ONLY, { secretKey: true });
    await project.ok(["config", "set", "--secret", "other:key", ACME_SECOND_KEY]);
    await project.ok(["up", "--yes"]);
    const [first] = plugin.sim.subscriptions("acme");

    // The back office deletes k's subscription; d, declared under the second key and created first, subscribes
    // the hook again, and k is refused as its second declaration.
    const office = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    await office.delete([first?.id ?? 0]);
    await office.close();
    project.write({ "index.ts": D_THEN_K });
    const twice = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(twice.status).not.toBe(0);
    expect(twice.stdout).toContain("remove one of the two declarations");
    const [dLive] = plugin.sim.subscriptions("acme");
    expect(plugin.liveHooks()).toEqual([`${ORDERS}=${URL}`]);

    // d removed, as told: k is unchanged, and d's delete leaves the hook subscribed.
    project.write({ "index.ts": K_ONLY });
    await project.ok(["up", "--yes"]);
    expect(plugin.sim.subscriptions("acme").map((s) => s.id)).toEqual([dLive?.id]);
    expect((await project.subscriptions()).map((r) => r.urn.split("::").pop())).toEqual(["k"]);

    // A refresh records it for k; nothing is left to change.
    await project.ok(["up", "--yes", "--refresh"]);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(dLive?.id)]);
    await project.ok(["preview", "--expect-no-changes"]);
    expect(plugin.liveHooks()).toEqual([`${ORDERS}=${URL}`]);
  });
});
