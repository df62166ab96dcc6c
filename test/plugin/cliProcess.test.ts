/**
 * The Pulumi CLI process above a provider process, as the files a deployment's provider processes share are
 * keyed (cliProcess.ts): found through /proc (Linux) and through `ps` (macOS; procps takes the same options, so
 * the walk runs here for real), the same process either way; nothing above a process no CLI started.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fromProc, fromPs, pulumiCliProcess } from "../../provider/facts/cliProcess";

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process named `pulumi` (Node.js under that name) that starts a child; resolves with both pids. */
async function fakeCliWithChild(): Promise<{ cli: number; child: number }> {
  const dir = mkdtempSync(join(tmpdir(), "cli-process-"));
  dirs.push(dir);
  symlinkSync(process.execPath, join(dir, "pulumi"));
  const script = `const c = require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
console.log(c.pid); setTimeout(() => {}, 60000);`;
  const cli = spawn(join(dir, "pulumi"), ["-e", script], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  started.push(cli);
  const child = await new Promise<number>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error("the fake CLI printed no child pid in 20 s")), 20_000);
    cli.stdout?.setEncoding("utf8").once("data", (text: string) => {
      clearTimeout(deadline);
      resolve(Number(text.trim()));
    });
  });
  return { cli: cli.pid ?? -1, child };
}

describe("pulumiCliProcess", () => {
  it("finds the CLI above a child through /proc and through ps alike, by pid and start time", async () => {
    const { cli, child } = await fakeCliWithChild();
    const byProc = fromProc(child);
    const byPs = fromPs(child);
    expect(byProc).toMatch(new RegExp(`^${cli}@\\d+@[0-9a-f-]{36}$`));
    expect(byPs).toMatch(new RegExp(`^${cli}@\\w{3} \\w{3} +\\d+ \\d\\d:\\d\\d:\\d\\d \\d{4}$`));
    // Linux has /proc: the walk it takes is the /proc one.
    expect(pulumiCliProcess(child)).toBe(byProc);
    // Asked again, the same: every provider process of the deployment makes the same key.
    expect([fromProc(child), fromPs(child)]).toEqual([byProc, byPs]);
  });

  it("finds nothing above a process no CLI started, nor for a process that is gone", () => {
    expect(fromProc(process.pid)).toBeUndefined();
    expect(fromPs(process.pid)).toBeUndefined();
    expect(fromPs(2 ** 22 + 1)).toBeUndefined();
    expect(fromProc(2 ** 22 + 1)).toBeUndefined();
  });
});
