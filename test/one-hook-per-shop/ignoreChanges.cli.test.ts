/**
 * A resource that keeps its recorded hook through `ignoreChanges: ["hook"]`, and another resource of the
 * program declaring that hook for the same shop (issue 34, item 6): preview and up agree, both refuse on the
 * resource, naming the hook and `ignoreChanges`, and nothing is written. Through the official CLI in a project
 * folder, judged by the live subscriptions and the state.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";

const ORDERS = "order_status_change";
const LABELS = "shipment_label_created";

/** `a` on ORDERS; then (`second`) `a` declares LABELS but keeps ORDERS by ignoreChanges, and `b` declares ORDERS. */
function program(second: boolean): string {
  const a = second
    ? `new WebhookSubscription("a", { hook: "${LABELS}", url: "https://a.example.com/o" }, { ignoreChanges: ["hook"] });`
    : `new WebhookSubscription("a", { hook: "${ORDERS}", url: "https://a.example.com/o" });`;
  const b = second
    ? `\nnew WebhookSubscription("b", { hook: "${ORDERS}", url: "https://b.example.com/o" });`
    : "";
  return `import { WebhookSubscription } from "pulumi-shipping-webhooks";\n\n${a}${b}\n`;
}

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

describe("ignoreChanges on the hook, and another resource declaring the kept hook", () => {
  it("is refused by preview and by up alike, naming the hook and ignoreChanges; nothing is written", async () => {
    const project = await OfficialProject.create("ignore-changes", {
      ...typescriptProjectFiles("ignore-changes"),
      "index.ts": program(false),
    });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    await project.ok(["up", "--yes", "--skip-preview"]);
    const before = acme.sim.subscriptions("acme");

    project.write({ "index.ts": program(true) });
    acme.sim.clearRequests();
    // Which check the engine runs first is its own order: `b` first, the provider does not know yet that `a`
    // records the hook, and refuses `b` as a takeover; `a` first, `b` is a second declaration. Either way on
    // `b`, naming the hook, its id and ignoreChanges.
    const refusal = new RegExp(
      `resource 'b': property hook value \\{${ORDERS}\\} has a problem: ${ORDERS} (is declared twice for the default shop: |of the default shop at \\S+ already has subscription ${before[0]?.id}, ).*ignoreChanges: \\["hook"\\]`,
    );
    const preview = await project.pulumi(["preview"]);
    const up = await project.pulumi(["up", "--yes", "--skip-preview"]);
    for (const run of [preview, up]) {
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(refusal);
      expect(run.stdout).not.toMatch(/another shop entry/);
    }
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(acme.sim.subscriptions("acme")).toEqual(before);
    const recorded = (await project.subscriptions()).map(
      (r) => `${r.urn.split("::").pop()}=${r.outputs?.hook}`,
    );
    expect(recorded).toEqual([`a=${ORDERS}`]);
  });
});
