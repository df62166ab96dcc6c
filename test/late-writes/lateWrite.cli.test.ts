/**
 * A POST the service applies after the provider gave up, under the TypeScript class (the dynamic host), through
 * the official CLI: the scenario of postAppliedAfterGivingUp.ts (lateWrite.plugin.test.ts runs it under the
 * provider plugin).
 */
import { describe, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";
import { HOOK, postAppliedAfterGivingUp } from "./postAppliedAfterGivingUp";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { WebhookSubscription } from "pulumi-shipping-webhooks";

const config = new pulumi.Config();
new WebhookSubscription("orders", { hook: "${HOOK}", url: config.require("url") });
`;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

describe("a POST the service applies after the provider gave up", () => {
  it("is never sent again blind; what lands is recorded, follows the declared URL, and destroy leaves nothing", async () => {
    await postAppliedAfterGivingUp({
      acme,
      program: PROGRAM,
      async project(name, program) {
        const project = await OfficialProject.create(name, {
          ...typescriptProjectFiles(name),
          "index.ts": program,
        });
        await project.initStack(acme.sim.baseUrl, ACME_KEY);
        return project;
      },
    });
  });
});
