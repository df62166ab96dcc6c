/**
 * A secret callback URL through the real CLI, which alone encrypts state: changed from one secret to another,
 * adopted by a renamed resource (whose `previous` output records it), then refreshed, it is never stored or
 * printed in plain text: not in the backend's files (backups and history included), not in a plain
 * `pulumi stack export`, not in the CLI's output; the stack output holds it as a secret, and state id = live id.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { dist, engine, filesUnder, type Sandbox, subscriptionResources } from "../support/engine";
import { scenario } from "../support/scenario";

const ORDERS = "order_status_change";

/** `pulumi stack <args> --stack test` without --show-secrets, as a user (or a backup tool) would run it. */
function plain(box: Sandbox, ...args: string[]): string {
  return execFileSync(dist.pulumiCli.requirePulumiCli().binary, ["stack", ...args, "--stack", "test"], {
    cwd: box.workDir,
    env: { ...process.env, PULUMI_HOME: box.pulumiHome, PULUMI_CONFIG_PASSPHRASE: "shipping-webhooks-demo" },
    encoding: "utf8",
  });
}

/** The simulator of this file, reset before each test (and its switches set back). */
const simulator = useAcmeSimulator();

describe("a secret URL", () => {
  it("changed from one secret to another, then adopted by a renamed resource and refreshed, is never stored in plain text", async () => {
    const sim = simulator.sim;
    const first = "https://hooks.example.com/o?token=first-s3cret";
    const second = "https://hooks.example.com/o?token=second-s3cret";
    const run = await scenario(
      sim,
      [{ name: "orders", hook: ORDERS, url: first, secretUrl: true }],
      "secret-url",
    );
    await engine(run.stack.up({ onOutput: run.log.onOutput }), "up");
    run.state.declared = [{ name: "orders", hook: ORDERS, url: second, secretUrl: true }];
    await engine(run.stack.up({ onOutput: run.log.onOutput }), "up (secret change)");
    // A rename without an alias: the new resource adopts the live subscription of the old one.
    run.state.declared = [{ name: "orders-renamed", hook: ORDERS, url: second, secretUrl: true }];
    await engine(run.stack.up({ onOutput: run.log.onOutput }), "up (rename)");
    await engine(run.stack.refresh({ onOutput: run.log.onOutput }), "refresh");
    // The output `previous` records the adopted subscription's URL: shown only with --show-secrets.
    const output = (await run.stack.outputs())["orders-renamed"];
    expect(JSON.stringify(output?.value)).toContain("second-s3cret");
    const shown = JSON.parse(plain(run.box, "output", "--json"))["orders-renamed"];
    expect(shown.previous).toBe("[secret]");
    for (const file of filesUnder(run.box.backendDir)) expect(file.text, file.path).not.toContain("s3cret");
    expect(plain(run.box, "export")).not.toContain("s3cret");
    expect(run.log.text).not.toContain("s3cret");
    const recorded = subscriptionResources(await run.stack.exportStack()).map((r) => {
      const url = r.outputs.url as { plaintext: string };
      return { id: Number(r.id), hook: r.outputs.hook, url: JSON.parse(url.plaintext) };
    });
    expect(recorded).toEqual(sim.subscriptions("acme"));
  });
});
