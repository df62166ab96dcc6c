/**
 * The provider plugin `pulumi-resource-shipping` through the official CLI, from a TypeScript program that
 * declares its resource by type token (as any language does), judged by the live subscriptions and the state:
 * preview writes nothing; up subscribes; the state holds no dynamic-host field and never the API key (set in
 * plain text, kept secret by the plugin's CheckConfig); a secret URL and `previous` stay secret; refresh
 * changes nothing; destroy unsubscribes; two declarations of one hook are refused at preview.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import type { OfficialProject } from "../support/officialProject";
import { PLUGIN_TYPE, pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { LABELS, ORDERS } from "../support/services";
import { ACME_KEY, leaksOf } from "../support/shops";

const LABELS_URL = "https://hooks.example.com/labels";
const ORDERS_URL = "https://hooks.example.com/orders?token=s3cret";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** The texts of the backend's stack files (checkpoints and their backups). */
function stackFiles(project: OfficialProject): string[] {
  const dir = join(project.backendDir, ".pulumi", "stacks");
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  expect(entries.length).toBeGreaterThan(0);
  return entries.map((e) => readFileSync(join(e.parentPath, e.name), "latin1"));
}

const SECRET_MARK = "4dabf18193072939515e22adb298388d";

describe("a TypeScript program using the plugin", () => {
  it("previews, ups, refreshes and destroys; the state holds no key, no dynamic-host field; secrets stay secret", async () => {
    // A subscription of the labels hook at the same URL, made before: adopted with no write, `previous` records it.
    const client = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    await client.create([{ hook: LABELS, url: LABELS_URL }]);
    await client.close();
    plugin.sim.clearRequests();
    const project = await plugin.project(
      "plugin-lifecycle",
      pluginProgram(
        pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`) +
          pluginResource("orders", `hook: "${ORDERS}", url: pulumi.secret("${ORDERS_URL}")`),
      ),
    );

    await project.ok(["preview"]);
    expect(plugin.writes()).toEqual([]);

    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks()).toEqual([`${ORDERS}=${ORDERS_URL}`, `${LABELS}=${LABELS_URL}`].sort());
    expect(plugin.writes()).toHaveLength(1); // one POST: the orders hook; labels was adopted
    const state = await project.resources();
    const subs = state.filter((r) => r.type === PLUGIN_TYPE);
    expect(subs.map((r) => r.urn.split("::").pop()).sort()).toEqual(["labels", "orders"]);
    for (const sub of subs) {
      expect(Object.keys(sub.inputs ?? {}).filter((k) => k.startsWith("__"))).toEqual([]);
      expect(Object.keys(sub.outputs ?? {}).filter((k) => k.startsWith("__"))).toEqual([]);
    }
    const byName = (name: string) => subs.find((r) => r.urn.endsWith(`::${name}`));
    expect(JSON.stringify(byName("orders")?.outputs?.url)).toContain(SECRET_MARK);
    expect(JSON.stringify(byName("labels")?.outputs?.previous)).toContain(SECRET_MARK);
    expect(byName("labels")?.outputs?.url).toBe(LABELS_URL);
    const exported = (await project.ok(["stack", "export"])).stdout;
    expect(leaksOf(ACME_KEY, exported)).toEqual([]);
    expect(exported).not.toContain("s3cret");
    // The stack's files (the update history keeps the stack's config as set: a plain `config set` is plain there).
    expect(stackFiles(project).flatMap((text) => leaksOf(ACME_KEY, text))).toEqual([]);

    plugin.sim.clearRequests();
    await project.ok(["refresh", "--yes"]);
    await project.ok(["preview", "--expect-no-changes"]);
    expect(plugin.writes()).toEqual([]);
    expect((await project.resources()).filter((r) => r.type === PLUGIN_TYPE)).toHaveLength(2);

    await project.ok(["destroy", "--yes"]);
    expect(plugin.liveHooks()).toEqual([]);
    expect(await project.resources()).toEqual([]);
  });

  it("refresh drops a subscription re-pointed outside the stack and says which; no write", async () => {
    const project = await plugin.project(
      "plugin-drift",
      pluginProgram(pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`)),
    );
    await project.ok(["up", "--yes"]);
    const [sub] = await project.resources().then((all) => all.filter((r) => r.type === PLUGIN_TYPE));
    // The back office edits the URL and keeps the id: no longer this resource's (the ownership rule).
    plugin.sim.setSwitches({ overwrite: "keep-id" });
    const client = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    await client.create([{ hook: LABELS, url: "https://back-office.example.net/labels" }]);
    await client.close();
    plugin.sim.setSwitches({ overwrite: "new-id" });
    plugin.sim.clearRequests();

    const refresh = await project.ok(["refresh", "--yes"]);
    expect(`${refresh.stdout}${refresh.stderr}`).toContain(
      `subscription ${sub?.id} (${LABELS}) now points at another URL than this resource declared`,
    );
    expect((await project.resources()).filter((r) => r.type === PLUGIN_TYPE)).toEqual([]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=https://back-office.example.net/labels`]);
    expect(plugin.writes()).toEqual([]);
  });

  it("fails preview on a misspelt setting under shipping:, naming the setting meant, before any write", async () => {
    const project = await plugin.project(
      "plugin-misspelt",
      pluginProgram(pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`)),
    );
    await project.ok(["config", "set", "shipping:shopID", "acme"]);
    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    expect(`${preview.stdout}${preview.stderr}`).toContain("did you mean `shipping:shopId`?");
    expect(plugin.writes()).toEqual([]);
  });

  it("refuses two declarations of one hook at preview, naming both, with no write", async () => {
    const project = await plugin.project(
      "plugin-twice",
      pluginProgram(
        pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`) +
          pluginResource("labels-again", `hook: "${LABELS}", url: "https://hooks.example.com/other"`),
      ),
    );
    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    expect(`${preview.stdout}${preview.stderr}`).toMatch(
      /declares hook shipment_label_created for shop \(default\), which WebhookSubscription "labels(-again)?" already declares/,
    );
    const up = await project.pulumi(["up", "--yes"]);
    expect(up.status).not.toBe(0);
    expect(plugin.liveHooks()).toEqual([]);
    expect(plugin.writes()).toEqual([]);
  });
});
