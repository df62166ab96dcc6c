/**
 * A URL change of a resource that asks for `deleteBeforeReplace`, whose create then fails, through the official
 * CLI in a project folder, judged by the live subscriptions and the state. The engine deletes first, as the
 * resource asks, so the hook is unsubscribed until a create succeeds; the state keeps the deleted subscription
 * as pending replacement, which `pulumi refresh` does not read. On a shop that then lists nothing, the next
 * `up` cannot tell a deleted subscription from a key that reaches another shop, and refuses; its message names
 * the way out, which this test follows to a subscribed hook.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";

const LABELS = "shipment_label_created";
const OURS = "https://hooks.example.com/labels";

const acme = useAcmeSimulator();

/** The labels resource at `url`, replaced delete-first. */
function program(url: string): string {
  return `import { WebhookSubscription } from "pulumi-shipping-webhooks";

new WebhookSubscription("labels", { hook: "${LABELS}", url: "${url}" }, { deleteBeforeReplace: true });
`;
}

describe("deleteBeforeReplace, a URL change whose POST fails", () => {
  it("the next up refuses on the emptied shop, naming pulumi state delete; following it subscribes the hook", async () => {
    const project = await OfficialProject.create("dbr-failed", {
      ...typescriptProjectFiles("dbr-failed"),
      "index.ts": program(OURS),
    });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    await project.ok(["up", "--yes"]);

    project.write({ "index.ts": program(`${OURS}-v2`) });
    acme.sim.addFault({ kind: "status", status: 500, method: "POST", count: 20 });
    const failed = await project.pulumi(["up", "--yes", "--skip-preview"]);
    acme.sim.clearFaults();
    expect(failed.status).not.toBe(0);
    expect(acme.liveHooks()).toEqual([]);
    const [pending] = await project.subscriptions();
    expect((pending as { pendingReplacement?: boolean } | undefined)?.pendingReplacement).toBe(true);

    const stuck = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(stuck.status).not.toBe(0);
    expect(stuck.stdout).toContain("pulumi state delete <its URN>");
    expect(acme.liveHooks()).toEqual([]);

    await project.ok(["state", "delete", pending?.urn ?? "", "--yes"]);
    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(acme.liveHooks()).toEqual([`${LABELS}=${OURS}-v2`]);
    const [subscribed] = await project.subscriptions();
    expect(subscribed?.id).toBe(String(acme.sim.subscriptions("acme")[0]?.id));
    await project.ok(["preview", "--expect-no-changes"]);
  });
});
