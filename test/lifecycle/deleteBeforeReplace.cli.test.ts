/**
 * A `deleteBeforeReplace` URL change whose POST fails, under the TypeScript class (the dynamic host), through
 * the official CLI: the scenario of deleteFirstCreateFails.ts (deleteBeforeReplace.plugin.test.ts runs it under
 * the provider plugin).
 */
import { describe, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";
import { deleteFirstCreateFails, HOOK } from "./deleteFirstCreateFails";

const acme = useAcmeSimulator();

/** The labels resource at `url`, replaced delete-first. */
function program(url: string): string {
  return `import { WebhookSubscription } from "pulumi-shipping-webhooks";

new WebhookSubscription("labels", { hook: "${HOOK}", url: "${url}" }, { deleteBeforeReplace: true });
`;
}

describe("deleteBeforeReplace, a URL change whose POST fails", () => {
  it("the next up refuses on the emptied shop, naming pulumi state delete; following it subscribes the hook", async () => {
    await deleteFirstCreateFails({
      acme,
      program,
      async project(name, source) {
        const project = await OfficialProject.create(name, {
          ...typescriptProjectFiles(name),
          "index.ts": source,
        });
        await project.initStack(acme.sim.baseUrl, ACME_KEY);
        return project;
      },
    });
  });
});
