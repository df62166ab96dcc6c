/**
 * `pulumi new templates/shipping-webhooks --yes`, with the base URL and the key given on the command line:
 * the CLI lays out the project, saves the key as a secret, installs the dependencies with npm, and the
 * project deploys. The one change to the template: its dependency on this package names the packed tarball,
 * since the registry here does not have the package.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { temporaryRoot } from "../support/consumer";
import { REPO_ROOT } from "../support/engine";
import { packedTarball } from "../support/install";
import { OfficialProject } from "../support/officialProject";
import { ACME_KEY, leaksOf } from "../support/shops";

const acme = useAcmeSimulator();
let root: string | undefined;
afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe("pulumi new with the repository's template", () => {
  it("--yes with config on the command line installs and deploys; a key given so is flagged until stored encrypted", async () => {
    root = temporaryRoot();
    const tarball = await packedTarball();
    const template = join(root, "template");
    cpSync(join(REPO_ROOT, "templates", "shipping-webhooks"), template, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(template, "package.json"), "utf8"));
    manifest.dependencies["pulumi-shipping-webhooks"] = `file:${tarball}`;
    writeFileSync(join(template, "package.json"), JSON.stringify(manifest, null, 2));

    // The CLI, backend and passphrase of an official-path project; `pulumi new` makes the folder.
    const host = await OfficialProject.create("template-host", {});
    const dir = join(root, "shop-hooks");
    mkdirSync(dir);
    const env = { npm_config_prefer_offline: "true" };
    const created = await host.ok(
      [
        "new",
        template,
        "--yes",
        "--dir",
        dir,
        "--name",
        "shop-hooks",
        "--stack",
        "dev",
        "--config",
        `shipping:baseUrl=${acme.sim.baseUrl}`,
        "--config",
        `shipping:apiKey=${ACME_KEY}`,
      ],
      env,
    );
    expect(created.stdout).toContain("Your new project is ready to go!");
    const run = (args: string[]) => host.ok(["--cwd", dir, ...args]);
    // `pulumi new --config` stores the key as given, in plain text, whatever the template's `secret: true`
    // says (CLI 3.248): the program says so, and how to store it encrypted.
    const stackConfig = () => readFileSync(join(dir, "Pulumi.dev.yaml"), "utf8");
    expect(leaksOf(ACME_KEY, stackConfig())).not.toEqual([]);
    const PLAIN = "shipping:apiKey is stored in plain text in the stack's config file";
    const warned = await run(["preview"]);
    expect(warned.stdout).toContain(PLAIN);
    expect(warned.stdout).toContain("`pulumi config set --secret shipping:apiKey <key>`");
    expect(leaksOf(ACME_KEY, warned.stdout + warned.stderr)).toEqual([]);
    await run(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    expect(stackConfig()).toMatch(/shipping:apiKey:\s+secure: /);
    expect(leaksOf(ACME_KEY, stackConfig())).toEqual([]);

    // The preview above (then with the key in plain text) is asserted: up goes straight to the update, whose
    // program run would print the warning again were the key still plain.
    const up = await run(["up", "--yes", "--skip-preview"]);
    expect(up.stdout).not.toContain(PLAIN);
    expect(acme.sim.subscriptions("acme").map(({ hook, url }) => ({ hook, url }))).toEqual([
      { hook: "order_status_change", url: "https://hooks.example.com/orders" },
    ]);
    await run(["destroy", "--yes", "--skip-preview"]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });
});
