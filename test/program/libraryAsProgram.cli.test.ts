/**
 * Issue 34: `pulumi up` in a folder of a clone of the repository that holds a Pulumi.yaml but no package.json
 * (what examples/single-shop was until 0.3): the Node.js language host takes the `main` of the nearest
 * package.json above, the library's, as the program. It declared nothing, and `up --yes` deleted every
 * subscription of the stack with a warning, exit 0. It must fail, naming what ran and the fix, and leave the
 * stack's subscriptions live and in state; a program that imports the package runs as before.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { REPO_ROOT } from "../support/engine";
import { installedPackages } from "../support/install";
import { OfficialProject } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";
import { previewAndUpFail } from "./previewAndUpFail";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/**
 * examples/single-shop inside a checkout of this package (its package.json and dist/, as a clone has them
 * after `npm run build`), the package and @pulumi/pulumi resolved from the installed dependencies above it.
 */
async function exampleInClone(): Promise<OfficialProject> {
  const project = await OfficialProject.create(
    "library-as-program",
    { copyOf: join(REPO_ROOT, "examples", "single-shop") },
    "commonjs",
    "clone/examples/single-shop",
  );
  const installed = join(await installedPackages("commonjs"), "node_modules", "pulumi-shipping-webhooks");
  cpSync(installed, join(project.dir, "..", ".."), { recursive: true });
  await project.initStack(acme.sim.baseUrl, ACME_KEY);
  return project;
}

describe("the library run as the program", () => {
  it("fails preview and up with the fix; every subscription of the stack stays live and in state", async () => {
    const project = await exampleInClone();
    await project.ok(["up", "--yes", "--skip-preview"]);
    const deployed = acme.sim.subscriptions("acme");
    expect(deployed.map((s) => s.hook).sort()).toEqual([
      "order_status_change",
      "shipment_label_created",
      "shipment_status_change",
    ]);

    const manifest = readFileSync(join(project.dir, "package.json"), "utf8");
    rmSync(join(project.dir, "package.json"));
    const runs = await previewAndUpFail(project, acme.sim, [
      "pulumi-shipping-webhooks is a library, not a program: Pulumi ran ../../dist/provider/index.js as the program because the project folder",
      'has no package.json of its own, so Pulumi took the "main" of the nearest one above it, ../../package.json',
      "Write your program in index.ts of a project with its own package.json",
    ]);
    for (const run of runs) {
      expect(run.stdout).not.toMatch(/deleted|to delete/);
      expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/unhandled exception|\n\s+at /);
    }
    expect(acme.sim.subscriptions("acme")).toEqual(deployed);
    expect((await project.subscriptions()).map((r) => r.id).sort()).toEqual(
      deployed.map((s) => String(s.id)).sort(),
    );

    // With its package.json back, a Pulumi.yaml whose `main` names the provider's runtime module (the other
    // module of the package a program might be pointed at) fails the same way.
    writeFileSync(join(project.dir, "package.json"), manifest);
    const settings = readFileSync(join(project.dir, "Pulumi.yaml"), "utf8");
    writeFileSync(
      join(project.dir, "Pulumi.yaml"),
      `${settings.trimEnd()}\nmain: ../../dist/provider/runtime.js\n`,
    );
    const runtimeRuns = await previewAndUpFail(project, acme.sim, [
      'pulumi-shipping-webhooks is a library, not a program: Pulumi ran dist/provider/runtime.js of this package as the program because the project\'s "main" (in Pulumi.yaml or its package.json) names this package',
    ]);
    for (const run of runtimeRuns) expect(run.stdout).not.toMatch(/deleted|to delete/);
    expect(acme.sim.subscriptions("acme")).toEqual(deployed);

    // With its Pulumi.yaml back too, the program (which imports the package) runs: nothing to change.
    writeFileSync(join(project.dir, "Pulumi.yaml"), settings);
    await project.ok(["preview", "--expect-no-changes"]);
    expect(acme.sim.subscriptions("acme")).toEqual(deployed);
  });
});
