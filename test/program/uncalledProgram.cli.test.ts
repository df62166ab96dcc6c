/**
 * A program written `export default async function` in a CommonJS project (what every program of this
 * repository was until 0.2): the language host never calls it. It must fail, saying how to write it, and
 * never deploy nothing nor delete what a stack has. A program exporting its function by name fails the same
 * way, with the ways out (call it, move a helper to another module, or `pulumi destroy`).
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { markedBlock } from "../support/readme";
import { ACME_KEY } from "../support/shops";
import { previewAndUpFail } from "./previewAndUpFail";

/** The README's program as it was written before this release. */
const DEFAULT_EXPORT_PROGRAM = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

export default async function program() {
  const orders = new WebhookSubscription("orders", {
    hook: "order_status_change",
    url: "https://hooks.example.com/orders",
  });
  return { orderHookId: orders.subscriptionId };
}
`;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

describe("a CommonJS program exported as default", () => {
  it("fails preview and up with the fix, and leaves a deployed stack's subscriptions live and in state", async () => {
    const project = await OfficialProject.create("uncalled", {
      ...typescriptProjectFiles("uncalled"),
      "index.ts": markedBlock("program: commonjs"),
    });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    // The deploy is only the setting (readme.test.ts previews this program): straight to the update.
    await project.ok(["up", "--yes", "--skip-preview"]);
    const deployed = acme.sim.subscriptions("acme");
    expect(deployed).toHaveLength(1);

    project.write({ "index.ts": DEFAULT_EXPORT_PROGRAM });
    await previewAndUpFail(project, acme.sim, [
      "index.ts exports its program as `export default`, which Pulumi does not call in a CommonJS project",
      "Write the program as top-level statements",
    ]);
    expect(acme.sim.subscriptions("acme")).toEqual(deployed);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(deployed[0]?.id)]);

    // A named export (`export async function main`) is never called either: the same failure, with the way
    // out for a helper and for a stack meant to be empty.
    project.write({
      "index.ts": DEFAULT_EXPORT_PROGRAM.replace(
        "export default async function program",
        "export async function main",
      ),
    });
    await previewAndUpFail(project, acme.sim, [
      "index.ts declared no WebhookSubscription and exports a function `main` that Pulumi does not call, so the update stops here",
      "call it at the end of the file (`main();`)",
      "if the stack should have no subscriptions, run `pulumi destroy`",
    ]);
    // Without the preview the engine's deletes never start either: the program failed.
    const skipped = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(skipped.status).not.toBe(0);
    expect(acme.sim.subscriptions("acme")).toEqual(deployed);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(deployed[0]?.id)]);
  });
});
