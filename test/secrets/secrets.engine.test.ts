import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type Declaration,
  declarationsProgram,
  dist,
  engine,
  filesUnder,
  OutputLog,
  REPO_ROOT,
  type Sandbox,
  sandbox,
  stackIn,
  stateResources,
} from "../support/engine";
import { ACME_KEY, acmeStackConfig, leaksOf } from "../support/shops";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

const pulumiBinary = () => dist.pulumiCli.requirePulumiCli().binary;

/** `pulumi stack export` without --show-secrets, as a user (or a backup tool) would run it. */
function plainExport(box: Sandbox): string {
  return execFileSync(pulumiBinary(), ["stack", "export", "--stack", "test", "--non-interactive"], {
    cwd: box.workDir,
    env: { ...process.env, PULUMI_HOME: box.pulumiHome, PULUMI_CONFIG_PASSPHRASE: "shipping-webhooks-demo" },
    encoding: "utf8",
  });
}

/** Runs preview, up, refresh, a URL change and destroy, collecting everything printed. */
async function fullLifecycle(
  box: Sandbox,
  config: Record<string, { value: string; secret?: boolean }>,
  env = {},
) {
  let declared: Declaration[] = [
    { name: "orders", hook: "order_status_change", url: "https://hooks.example.com/o" },
  ];
  const stack = await stackIn(
    box,
    declarationsProgram(() => declared),
    config,
    env,
  );
  const log = new OutputLog();
  await engine(stack.preview({ onOutput: log.onOutput, diff: true }), "preview");
  await engine(stack.up({ onOutput: log.onOutput }), "up");
  await engine(stack.refresh({ onOutput: log.onOutput }), "refresh");
  declared = [{ name: "orders", hook: "order_status_change", url: "https://hooks.example.com/o2" }];
  await engine(stack.up({ onOutput: log.onOutput, diff: true }), "up (url change)");
  const withSecrets = JSON.stringify(await stack.exportStack());
  const plain = plainExport(box);
  await engine(stack.destroy({ onOutput: log.onOutput }), "destroy");
  return { stack, printed: log.text, withSecrets, plain };
}

describe("the API key in state and output", () => {
  it("set with config --secret: 0 bytes at rest, in a plain export, in __provider, or in output", async () => {
    const box = sandbox("secret-config");
    const run = await fullLifecycle(box, acmeStackConfig(acme.sim.baseUrl));
    const atRest = filesUnder(box.backendDir).concat(filesUnder(box.workDir));
    expect(
      atRest.filter((f) => f.path.includes("history") || f.path.includes(".bak")).length,
    ).toBeGreaterThan(0);
    for (const file of atRest) expect(leaksOf(ACME_KEY, file.text), file.path).toEqual([]);
    expect(leaksOf(ACME_KEY, run.plain)).toEqual([]);
    expect(leaksOf(ACME_KEY, run.printed)).toEqual([]);

    // Under --show-secrets the engine's own copy of the stack config (the provider resource's inputs) may show
    // it, marked secret; nothing else may.
    for (const resource of stateResources(JSON.parse(run.withSecrets))) {
      const text = JSON.stringify(resource);
      if (String(resource.type).startsWith("pulumi:providers:")) continue;
      expect(leaksOf(ACME_KEY, text), String(resource.urn)).toEqual([]);
    }
    expect(run.withSecrets).not.toContain(REPO_ROOT); // no build-machine path in __provider either
  });

  it("given by environment variable: appears nowhere at all, --show-secrets included", async () => {
    const box = sandbox("secret-env");
    const run = await fullLifecycle(
      box,
      { "shipping:baseUrl": { value: acme.sim.baseUrl } },
      { SHIPPING_API_KEY: ACME_KEY },
    );
    for (const text of [
      run.withSecrets,
      run.plain,
      run.printed,
      ...filesUnder(box.root).map((f) => f.text),
    ]) {
      expect(leaksOf(ACME_KEY, text)).toEqual([]);
    }
  });
});
