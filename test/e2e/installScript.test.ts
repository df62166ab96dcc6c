import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/engine";

const SCRIPT = join(REPO_ROOT, "scripts", "install-pulumi.sh");
/** Go's build cache is warm here (the CLI was installed before the tests), so a rebuild takes seconds. */
const INSTALL_DEADLINE_MS = 480_000;

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
      ? "installs the CLI and its plugin into an empty root (module cache already warm), then does nothing"
      : "without Go, says how to get the CLI",
    () => {
      const root = mkdtempSync(join(tmpdir(), "pulumi-root-"));
      const first = install(root);
      if (!hasGo) {
        expect(first.status).toBe(1);
        expect(first.output).toMatch(/install the official CLI .* or install Go 1\.25\+/s);
        return;
      }
      expect(first.status, first.output).toBe(0);
      expect(first.output).toMatch(/modules fetched: \d+/);
      expect(first.output).toMatch(/Pulumi CLI v3\.248\.0 installed/);
      expect(existsSync(join(root, "bin", "pulumi-resource-pulumi-nodejs"))).toBe(true);
      const version = spawnSync(join(root, "bin", "pulumi"), ["version"], { encoding: "utf8" });
      expect(version.stdout.trim()).toBe("v3.248.0");
      const again = install(root);
      expect(again.status).toBe(0);
      expect(again.output).toMatch(/nothing to do/);
    },
  );

  it("fails with a clear message when neither the CLI nor Go is there", () => {
    const root = mkdtempSync(join(tmpdir(), "pulumi-root-"));
    const run = install(root, { ...process.env, PATH: "/usr/bin:/bin" });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/no Pulumi CLI v3\.248\.0 at .* and no Go toolchain to build one/);
  });
});
