import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { standInGo } from "../support/standInGo";

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

  it("leaves a user's CLI unpacked from the official tarball (pulumi with no bin/) as it is, and builds nothing beside it", () => {
    const go = standInGo();
    const folder = mkdtempSync(join(tmpdir(), "user-pulumi-tarball-"));
    roots.push(folder);
    const binary = join(folder, "pulumi");
    writeFileSync(binary, "#!/bin/sh\necho v3.100.0\n");
    chmodSync(binary, 0o755);
    const run = spawnSync("bash", [join(REPO_ROOT, "scripts", "install-pulumi.sh")], {
      env: {
        ...process.env,
        PATH: `${go.bin}${delimiter}${process.env.PATH ?? ""}`,
        SHIPPING_PULUMI_ROOT: folder,
      },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${binary} is v3.100.0, not v3.248.0, and is left as it is`);
    expect(run.stderr).toMatch(
      /the folder holding bin\/pulumi, or pulumi itself as the official tarball unpacks/,
    );
    expect(readdirSync(folder)).toEqual(["pulumi"]);
    expect(go.calls()).toEqual([]);
  });
});
