import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const REPO_ROOT = resolve(__dirname, "..", "..");
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A folder holding a `bin/pulumi` that reports `version`, as a user's own installed CLI would. */
function userCli(version: string): { root: string; binary: string; text: string } {
  const root = mkdtempSync(join(tmpdir(), "user-pulumi-"));
  roots.push(root);
  mkdirSync(join(root, "bin"));
  const binary = join(root, "bin", "pulumi");
  const text = `#!/bin/sh\necho ${version}\n`;
  writeFileSync(binary, text);
  chmodSync(binary, 0o755);
  return { root, binary, text };
}

describe("scripts/install-pulumi.sh and a CLI it did not build", () => {
  it.each(["v3.260.0", "v3.100.0"])(
    "leaves a user's %s at SHIPPING_PULUMI_ROOT as it is, and says what to do",
    (version) => {
      const cli = userCli(version);
      const run = spawnSync("bash", [join(REPO_ROOT, "scripts", "install-pulumi.sh")], {
        env: { ...process.env, SHIPPING_PULUMI_ROOT: cli.root },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${cli.binary} is ${version}, not v3.248.0, and is left as it is`);
      expect(run.stderr).toMatch(/unset it so that v3\.248\.0 is built under/);
      expect(readFileSync(cli.binary, "utf8")).toBe(cli.text);
    },
  );
});
