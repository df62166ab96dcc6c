import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/engine";
import { VERSITYGW_VERSION, versitygwBinary } from "../support/versitygw";

const SCRIPT = join(REPO_ROOT, "scripts", "install-versitygw.sh");
/** With the binary there the script only asks it for its version. */
const CHECK_DEADLINE_MS = 30_000;

function install(env: NodeJS.ProcessEnv) {
  const run = spawnSync("bash", [SCRIPT], { env, encoding: "utf8", timeout: CHECK_DEADLINE_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("scripts/install-versitygw.sh", () => {
  it("does nothing when the gateway is built (npm test builds it first), and tests find it where it put it", () => {
    const run = install({ ...process.env, SHIPPING_VERSITYGW_ROOT: dirname(versitygwBinary()) });
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain(
      `versitygw v${VERSITYGW_VERSION} is ready at ${versitygwBinary()} (nothing to do)`,
    );
  });

  it("fails with a clear message when neither the gateway nor Go is there", () => {
    const root = mkdtempSync(join(tmpdir(), "versitygw-root-"));
    const run = install({ ...process.env, SHIPPING_VERSITYGW_ROOT: root, PATH: "/usr/bin:/bin" });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(
      /versitygw v1\.8\.0 is not built yet .* and no Go toolchain is on PATH to build it/,
    );
    expect(run.output).toMatch(/Install Go 1\.25\+ and run this script again/);
  });
});
