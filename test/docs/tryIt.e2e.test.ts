/**
 * The README's "Try it", run as a new user runs it: its commands exactly as printed, one shell session, in a
 * fresh copy of the repository (no node_modules, no dist/) beside an empty folder, through the official CLI
 * on a file backend of its own. The one change: the simulator's port 4010 becomes a free port, so that runs
 * side by side do not meet. Judged by the simulator's live subscriptions and the stack's state.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyAsClone } from "../support/cleanClone";
import { consumerEnv, temporaryRoot } from "../support/consumer";
import { dist } from "../support/engine";
import { freePort } from "../support/freePort";
import { runOk } from "../support/process";
import { markedBlock } from "../support/readme";

/** npm ci, a build, two installs and an up on a loaded 2-core machine. */
const TRY_IT_DEADLINE_MS = 480_000;
/** The template's program: one hook, one URL. */
const TEMPLATE_SUBSCRIPTION = { hook: "order_status_change", url: "https://hooks.example.com/orders" };
/** The simulator's demo shop key, as its CLI prints it. */
const DEMO_KEY = "sim_demo_rw";
/** The port the README's commands name. */
const README_PORT = "4010";

const root = temporaryRoot();
/** The process group of the shell that ran the commands (and of the simulator it left running). */
let group: number | undefined;
afterAll(() => {
  if (group !== undefined) {
    try {
      process.kill(-group, "SIGTERM");
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

/** Runs `script` with bash in `cwd`, output to `log`; resolves with its exit status. Its group outlives it. */
function runShell(script: string, cwd: string, env: NodeJS.ProcessEnv, log: string): Promise<number | null> {
  const out = openSync(log, "w");
  const shell = spawn("bash", ["-e", "-c", script], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  group = shell.pid;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (shell.pid !== undefined) process.kill(-shell.pid, "SIGKILL");
      reject(
        new Error(
          `the Try it commands did not finish in ${TRY_IT_DEADLINE_MS} ms\n${readFileSync(log, "utf8")}`,
        ),
      );
    }, TRY_IT_DEADLINE_MS);
    shell.on("error", reject);
    shell.on("exit", (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  });
}

/** The demo shop's subscriptions as the simulator at `port` lists them to its demo key. */
async function liveSubscriptions(port: string): Promise<Array<{ id: number; hook: string; url: string }>> {
  const answer = await fetch(`http://127.0.0.1:${port}/webhook_subscriptions`, {
    headers: { authorization: `bearer ${Buffer.from(DEMO_KEY).toString("base64")}` },
  });
  const body = (await answer.json()) as {
    data: { webhook_subscriptions: Array<{ id: number; hook: string; url: string }> };
  };
  return body.data.webhook_subscriptions;
}

describe("the README's Try it", () => {
  it("takes a fresh clone to a live subscription at the simulator in at most six commands, as printed; destroy removes it", async () => {
    const commands = markedBlock("commands: try it").trim().split("\n");
    expect(commands.length).toBeLessThanOrEqual(6);
    const script = commands.join("\n");
    expect(script).toContain(`--port ${README_PORT}`);
    const port = String(await freePort());

    const clone = join(root, "pulumi-shipping-webhooks");
    copyAsClone(clone);
    const cli = dist.pulumiCli.requirePulumiCli();
    const env = consumerEnv({
      PATH: [dirname(cli.binary), dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
      // A fresh Pulumi home: no login, no backend, no passphrase but what the commands set themselves.
      PULUMI_HOME: join(root, "home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    });
    for (const name of ["PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN"])
      delete env[name];
    // A user's shell has none of the npm_* variables of the `npm run` that may have started vitest (npm
    // reads them as its config). What this machine's npm needs: its cache first, no notices.
    for (const name of Object.keys(env)) if (/^npm_/i.test(name) || name === "INIT_CWD") delete env[name];
    env.npm_config_prefer_offline = "true";
    env.npm_config_update_notifier = "false";
    const log = join(root, "try-it.log");
    const started = Date.now();
    const status = await runShell(script.replaceAll(README_PORT, port), clone, env, log);
    const seconds = Math.round((Date.now() - started) / 1000);
    const output = readFileSync(log, "utf8");
    expect(status, output).toBe(0);
    console.log(`Try it: the commands took a fresh clone to their last line's listing in ${seconds} s`);

    // The service's own listing, asked with the demo key: the template's one subscription.
    const listed = await liveSubscriptions(port);
    expect(listed.map(({ hook, url }) => ({ hook, url }))).toEqual([TEMPLATE_SUBSCRIPTION]);
    const id = listed[0]?.id;
    // What the user sees: the README's last command printed that subscription.
    expect(output).toContain(`"id":${id},"hook":"order_status_change","url":"${TEMPLATE_SUBSCRIPTION.url}"`);
    // The stack records it, and `pulumi destroy` there (what the README says next) unsubscribes it.
    // The user's shell still holds what the commands exported.
    const passphrase = /PULUMI_CONFIG_PASSPHRASE=(\S+)/.exec(script)?.[1] ?? "";
    const shell = {
      ...env,
      PULUMI_BACKEND_URL: `file://${join(root, "try-it")}`,
      PULUMI_CONFIG_PASSPHRASE: passphrase,
    };
    expect(script).toContain('export PULUMI_BACKEND_URL="file://$PWD"');
    const project = { cwd: join(root, "try-it"), env: shell, deadlineMs: 240_000 };
    const exported = await runOk("pulumi", ["stack", "export"], project);
    const resources =
      (JSON.parse(exported.stdout) as { deployment: { resources?: Array<{ type: string; id?: string }> } })
        .deployment.resources ?? [];
    expect(resources.filter((r) => r.type.endsWith("shipping:WebhookSubscription")).map((r) => r.id)).toEqual(
      [String(id)],
    );
    await runOk("pulumi", ["destroy", "--yes"], project);
    expect(await liveSubscriptions(port)).toEqual([]);
  });
});
