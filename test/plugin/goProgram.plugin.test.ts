/**
 * A Go program using the provider plugin: a Go Automation API program (test/plugin/go-program, built by
 * scripts/build-go-program.sh against sdk v3.248.0, the CLI's own modules) declares
 * `shipping:index:WebhookSubscription` by its type token with the generic `ctx.RegisterResource`, no generated
 * SDK, and runs inline (no Go language host: the module proxy does not serve one). Up subscribes the hook,
 * a second up changes and writes nothing, destroy unsubscribes it; judged by the simulator's live subscriptions
 * and the stack's state. Where no Go toolchain is found, the file fails only when Go is expected
 * (SHIPPING_EXPECT_GO=1, as CI sets it: it builds the Pulumi CLI with Go).
 */
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pulumiCliRoot } from "../../scripts/lib/pulumiCli";
import { OfficialProject } from "../support/officialProject";
import { PLUGIN_TYPE, pluginFolder, usePluginSimulator } from "../support/pluginProject";
import { runOk } from "../support/process";
import { ACME_KEY, leaksOf } from "../support/shops";

const ROOT = join(__dirname, "..", "..");
const HOOK = "order_status_change";
const URL = "https://hooks.example.com/go-orders";
/** A cold build of the program on a loaded 2-core machine (the stage builds it before vitest starts). */
const BUILD_DEADLINE_MS = 30 * 60_000;
const RUN_DEADLINE_MS = 5 * 60_000;

/** Whether a Go toolchain is on PATH or where the official tarball installs it (as the build script looks). */
function goFound(): boolean {
  const folders = [...(process.env.PATH ?? "").split(delimiter), "/usr/local/go/bin"];
  return folders.some((folder) => folder !== "" && existsSync(join(folder, "go")));
}

/** What the Go program prints on its last line. */
interface GoResult {
  readonly operation: "up" | "destroy";
  readonly result: string;
  readonly changes: Record<string, number>;
  readonly subscriptionId?: number;
}

if (!goFound()) {
  describe("the Go Automation API program", () => {
    it("is not expected here: no Go toolchain is found and SHIPPING_EXPECT_GO is not 1", () => {
      expect(process.env.SHIPPING_EXPECT_GO, "Go is expected (SHIPPING_EXPECT_GO=1) but not found").not.toBe(
        "1",
      );
    });
  });
} else {
  const plugin = usePluginSimulator();
  let binary = "";
  beforeAll(async () => {
    const built = await runOk("bash", [join(ROOT, "scripts", "build-go-program.sh")], {
      cwd: ROOT,
      env: process.env,
      deadlineMs: BUILD_DEADLINE_MS,
    });
    binary = built.stdout.trim().split("\n").at(-1) ?? "";
  }, BUILD_DEADLINE_MS);

  describe("a Go Automation API program declaring the plugin's resource by type token", () => {
    it("ups, ups again with no change and no write, and destroys, against live subscriptions", async () => {
      expect(existsSync(binary), `the Go program was not built: ${binary}`).toBe(true);
      const project = await OfficialProject.create("go-hooks", {
        "README.md": "The Go program's work dir.\n",
      });
      const env = {
        ...project.env,
        SHIPPING_GO_WORK_DIR: project.dir,
        SHIPPING_GO_BACKEND: `file://${project.backendDir}`,
        SHIPPING_PULUMI_ROOT: pulumiCliRoot(),
        SHIPPING_PLUGIN_DIR: await pluginFolder(),
        SHIPPING_GO_BASE_URL: plugin.sim.baseUrl,
        SHIPPING_GO_API_KEY: ACME_KEY,
        SHIPPING_GO_HOOK: HOOK,
        SHIPPING_GO_URL: URL,
      };
      const run = async (operation: "up" | "destroy"): Promise<GoResult> => {
        const ran = await runOk(binary, [operation], { cwd: project.dir, env, deadlineMs: RUN_DEADLINE_MS });
        return JSON.parse(ran.stdout.trim().split("\n").at(-1) ?? "") as GoResult;
      };

      const up = await run("up");
      expect(up).toMatchObject({ result: "succeeded", changes: { create: 2 } });
      expect(plugin.liveHooks()).toEqual([`${HOOK}=${URL}`]);
      const live = plugin.sim.subscriptions("acme")[0];
      expect(up.subscriptionId).toBe(live?.id);
      const recorded = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
      expect(recorded.map((r) => r.id)).toEqual([String(live?.id)]);
      expect(leaksOf(ACME_KEY, (await project.ok(["stack", "export"])).stdout)).toEqual([]);

      plugin.sim.clearRequests();
      const again = await run("up");
      expect(again).toMatchObject({ result: "succeeded", changes: { same: 2 } });
      expect(plugin.writes()).toEqual([]);

      const destroy = await run("destroy");
      expect(destroy).toMatchObject({ result: "succeeded", changes: { delete: 2 } });
      expect(plugin.liveHooks()).toEqual([]);
      expect(await project.resources()).toEqual([]);
    });
  });
}
