import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { dist, engine, OutputLog, REPO_ROOT, sandbox } from "../support/engine";
import { acmeStackConfig } from "../support/shops";

/**
 * The official Linux tarball (pulumi-v3.x-linux-x64.tar.gz) unpacks to `pulumi/pulumi` with its plugins
 * beside it and no `bin/`. Here the real CLI the suite uses is arranged that way (a hard link of the binary,
 * a copy of the dynamic-provider plugin, the language host) and is put first on PATH, before whatever CLI the user has there.
 */
const { LocalWorkspace } = createRequire(__filename)("@pulumi/pulumi/automation") as typeof automation;
const PLUGIN = "pulumi-resource-pulumi-nodejs";
/** The local secrets provider's passphrase of this test's stack. */
const PASSPHRASE = "tarball-cli-test-passphrase";
/** `pulumi version` and Node start on a loaded machine. */
const ENSURE_DEADLINE_MS = 60_000;

const acme = useAcmeSimulator();
let scratch: string;
/** The unpacked tarball's `pulumi/` folder. */
let tarball: string;
/** The version of the real CLI (whichever fitting one the suite found: 3.248.0 built, or the user's own). */
let version: string;
let env: NodeJS.ProcessEnv;
let emptyHome: string;

beforeAll(async () => {
  const suiteCli = dist.pulumiCli.requirePulumiCli();
  const real = realpathSync(suiteCli.binary);
  version = suiteCli.version;
  scratch = mkdtempSync(join(tmpdir(), "pulumi-tarball-"));
  tarball = join(scratch, "pulumi");
  mkdirSync(tarball);
  try {
    linkSync(real, join(tarball, "pulumi"));
  } catch {
    copyFileSync(real, join(tarball, "pulumi")); // another file system: copy (mode included)
  }
  copyFileSync(join(dirname(real), PLUGIN), join(tarball, PLUGIN));
  // The language host the suite's CLI runs with, beside the unpacked CLI as in the tarball.
  const host = join(tarball, dist.pulumiCli.LANGUAGE_HOST);
  try {
    linkSync(suiteCli.languageHost, host);
  } catch {
    copyFileSync(suiteCli.languageHost, host);
  }
  emptyHome = join(scratch, "pulumi-home");
  env = { ...process.env, PATH: `${tarball}${delimiter}${process.env.PATH ?? ""}`, PULUMI_HOME: emptyHome };
  env.XDG_CACHE_HOME = join(scratch, "cache");
  delete env[dist.pulumiCli.PULUMI_ROOT_ENV];
});

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe("a Pulumi CLI laid out as the official Linux tarball (pulumi/pulumi, no bin/)", () => {
  it("on PATH is used as it is, and every caller that takes a CLI root gets one whose bin/pulumi is that CLI", () => {
    const ensure = spawnSync(process.execPath, [join(REPO_ROOT, "dist", "scripts", "ensurePulumiCli.js")], {
      env,
      encoding: "utf8",
      timeout: ENSURE_DEADLINE_MS,
    });
    expect(ensure.status, ensure.stderr).toBe(0);
    expect(ensure.stdout).toContain(`Using Pulumi CLI ${version} at ${tarball}/pulumi (found on PATH;`);
    expect(existsSync(join(emptyHome, "versions"))).toBe(false);

    const root = dist.pulumiCli.pulumiCliRoot(env);
    expect(realpathSync(join(root, "bin", "pulumi"))).toBe(realpathSync(join(tarball, "pulumi")));
    expect(realpathSync(join(root, "bin", PLUGIN))).toBe(realpathSync(join(tarball, PLUGIN)));

    // Named by SHIPPING_PULUMI_ROOT (the tarball's folder, or the root handed to child processes): the same
    // CLI, under the same root.
    expect(dist.pulumiCli.pulumiCliRoot({ ...env, [dist.pulumiCli.PULUMI_ROOT_ENV]: tarball })).toBe(root);
    expect(dist.pulumiCli.pulumiCliRoot({ ...env, [dist.pulumiCli.PULUMI_ROOT_ENV]: root })).toBe(root);
  });

  it("runs an inline program's up and destroy through the Automation API with it", async () => {
    const box = sandbox("tarball-cli");
    dist.provider.isolateInlineProgramConnections(); // as openStack does: a fresh connection to each engine
    const command = await dist.pulumiCli.pulumiCommand(env);
    expect(realpathSync(command.command)).toBe(realpathSync(join(tarball, "pulumi")));
    const stack = await LocalWorkspace.createOrSelectStack(
      {
        stackName: "test",
        projectName: "tarball",
        program: async () => {
          const hook = new dist.provider.WebhookSubscription("orders", {
            hook: "order_status_change",
            url: "https://hooks.example.com/tarball",
          });
          return { id: hook.subscriptionId };
        },
      },
      {
        pulumiCommand: command,
        workDir: box.workDir,
        envVars: {
          PATH: env.PATH ?? "",
          PULUMI_HOME: box.pulumiHome,
          PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
          PULUMI_SKIP_UPDATE_CHECK: "1",
        },
        projectSettings: { name: "tarball", runtime: "nodejs", backend: { url: `file://${box.backendDir}` } },
      },
    );
    await stack.setAllConfig(acmeStackConfig(acme.sim.baseUrl));
    const log = new OutputLog();
    const up = await engine(stack.up({ onOutput: log.onOutput }), "up");
    expect(up.summary.resourceChanges, log.text).toEqual({ create: 2 });
    expect(acme.sim.subscriptions("acme").map((s) => [s.id, s.url])).toEqual([
      [up.outputs.id?.value, "https://hooks.example.com/tarball"],
    ]);
    const destroy = await engine(stack.destroy({ onOutput: log.onOutput }), "destroy");
    expect(destroy.summary.resourceChanges, log.text).toEqual({ delete: 2 });
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });
});
