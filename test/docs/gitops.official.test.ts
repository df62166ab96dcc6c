/**
 * examples/gitops, "Try it locally": the README's own shell lines, run by bash in a copy of the template (its
 * package.json, tsconfig.json and Pulumi.yaml as they are), through the official CLI and its language host.
 * The simulator the first line starts is this test's, on its port; each step is judged by the live
 * subscriptions.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SHOPS, type RunningSimulator, startSimulator } from "../../simulator";
import { REPO_ROOT } from "../support/engine";
import { OfficialProject } from "../support/officialProject";
import { runProcess } from "../support/process";
import { blockAfterHeading } from "../support/readme";

/** A few CLI commands in one bash run, on a loaded machine. */
const SHELL_DEADLINE_MS = 300_000;
const STARTS_SIMULATOR = /^npx shipping-api-sim --port 4010 &/;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: DEFAULT_SHOPS });
});
afterAll(() => sim.close());

/** The demo shop's subscriptions as the service lists them: hook -> URL. */
function live(): Record<string, string> {
  return Object.fromEntries(sim.subscriptions("demo").map((s) => [s.hook, s.url]));
}

describe("examples/gitops: Try it locally", () => {
  it("up subscribes the hook, the URL edit previews as a replacement of old by new, destroy removes it", async () => {
    const lines = blockAfterHeading("## Try it locally", "examples/gitops/README.md")
      .split("\n")
      .map((line) => line.replace(/\s+# .*$/, "").trim())
      .filter((line) => line !== "");
    expect(lines[0]).toMatch(STARTS_SIMULATOR);
    const [exports, ...steps] = lines
      .slice(1)
      .map((line) => line.replaceAll("http://127.0.0.1:4010", sim.baseUrl));
    expect(exports).toMatch(/^export /);
    expect(steps.map((s) => s.split(" ").slice(0, 2).join(" "))).toEqual([
      "mkdir -p",
      "pulumi config",
      "pulumi config",
      "pulumi up",
      "pulumi preview",
      "pulumi destroy",
    ]);
    const project = await OfficialProject.create("gitops", { copyOf: join(REPO_ROOT, "examples", "gitops") });
    // The first line's command is the installed package's: it runs from the project.
    const help = await runProcess("npx", ["--no-install", "shipping-api-sim", "--help"], {
      cwd: project.dir,
      env: project.env,
      deadlineMs: SHELL_DEADLINE_MS,
    });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("--port");
    const bash = (commands: string[]) =>
      runProcess("bash", ["-euo", "pipefail", "-c", [exports, ...commands].join("\n")], {
        cwd: project.dir,
        env: project.env,
        deadlineMs: SHELL_DEADLINE_MS,
      });

    const deploy = await bash(steps.slice(0, 4));
    expect(deploy.status, deploy.stdout + deploy.stderr).toBe(0);
    expect(live()).toEqual({ order_status_change: "https://hooks.example.com/dev/orders" });

    sim.clearRequests();
    const preview = await bash(steps.slice(4, 5));
    expect(preview.status, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/\+-1 to replace/);
    expect(preview.stdout).toMatch(
      /~ url\s+: "https:\/\/hooks\.example\.com\/dev\/orders" => "https:\/\/hooks\.example\.com\/dev\/o2"/,
    );
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);

    const destroy = await bash(steps.slice(5));
    expect(destroy.status, destroy.stdout + destroy.stderr).toBe(0);
    expect(live()).toEqual({});
  });
});
