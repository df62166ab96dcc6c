import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/engine";

const SCRIPT = join(REPO_ROOT, "scripts", "install-pulumi.sh");
/** Go's build cache is warm here (the CLI was installed before the tests), so a rebuild takes seconds. */
const INSTALL_DEADLINE_MS = 480_000;

/** `node dist/scripts/ensurePulumiCli.js`: what npm test and the demo run first. */
function ensure(env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, "dist", "scripts", "ensurePulumiCli.js")], {
    env,
    encoding: "utf8",
    timeout: INSTALL_DEADLINE_MS,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function install(root: string, env: NodeJS.ProcessEnv = process.env) {
  const run = spawnSync("bash", [SCRIPT], {
    env: { ...env, SHIPPING_PULUMI_ROOT: root },
    encoding: "utf8",
    timeout: INSTALL_DEADLINE_MS,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const hasGo = spawnSync("go", ["version"]).status === 0;

describe("scripts/install-pulumi.sh", () => {
  it(
    hasGo
      ? "is run by npm test and the demo when no installed CLI fits; installs the CLI and its plugin into an empty root (module cache already warm), then is not needed"
      : "without Go, says how to get the CLI",
    () => {
      if (!hasGo) {
        const first = install(mkdtempSync(join(tmpdir(), "pulumi-root-")));
        expect(first.status).toBe(1);
        expect(first.output).toMatch(/install the official CLI .* or install Go 1\.25\+/s);
        return;
      }
      // An installed CLI too old for inline refresh and destroy comes first on PATH; PULUMI_HOME is empty.
      const bin = mkdtempSync(join(tmpdir(), "old-pulumi-"));
      writeFileSync(join(bin, "pulumi"), "#!/bin/sh\necho v3.180.0\n");
      chmodSync(join(bin, "pulumi"), 0o755);
      const home = mkdtempSync(join(tmpdir(), "pulumi-home-"));
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
      env.PULUMI_HOME = home;
      delete env.SHIPPING_PULUMI_ROOT;
      const root = join(home, "versions", "3.248.0");
      const first = ensure(env);
      expect(first.status, first.output).toBe(0);
      expect(first.output).toContain(
        `No installed Pulumi CLI fits (${bin}/pulumi is v3.180.0; inline programs need 3.181.0 or newer (3.x) for refresh and destroy; ${root}/bin/pulumi does not exist): building 3.248.0.`,
      );
      expect(first.output).toMatch(/modules fetched: \d+/);
      expect(first.output).toMatch(/Pulumi CLI v3\.248\.0 installed/);
      expect(first.output).toContain(`Using Pulumi CLI v3.248.0 at ${root}/bin/pulumi (built by`);
      expect(existsSync(join(root, "bin", "pulumi-resource-pulumi-nodejs"))).toBe(true);
      const version = spawnSync(join(root, "bin", "pulumi"), ["version"], { encoding: "utf8" });
      expect(version.stdout.trim()).toBe("v3.248.0");
      const again = ensure(env);
      expect(again.status).toBe(0);
      expect(again.output).not.toContain("Compiling");
      expect(again.output).toContain(`Using Pulumi CLI v3.248.0 at ${root}/bin/pulumi (built by`);
      expect(install(root).output).toMatch(/nothing to do/);
    },
  );

  it("fails with a clear message when neither the CLI nor Go is there", () => {
    const root = mkdtempSync(join(tmpdir(), "pulumi-root-"));
    const run = install(root, { ...process.env, PATH: "/usr/bin:/bin" });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/no Pulumi CLI v3\.248\.0 at .* and no Go toolchain to build one/);
  });
});
