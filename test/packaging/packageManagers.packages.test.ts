import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  changesOf,
  drive,
  installConsumer,
  UP_REFRESH_DESTROY,
  usePackedRepository,
} from "../support/consumer";
import { dist } from "../support/engine";
import { ACME_KEY, leaksOf } from "../support/shops";

/** Install plus up, refresh and destroy on a loaded machine. */
const INSTALL_AND_DEPLOY_MS = 540_000;
const DEPLOY_DEADLINE_MS = 240_000;
/** Removing two consumers' node_modules takes long on a loaded disk. */
const CLEANUP_TIMEOUT_MS = 300_000;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();
/** The repository packed once for the file's consumers. */
const repository = usePackedRepository({ packMs: 300_000, cleanupMs: CLEANUP_TIMEOUT_MS });

describe.each([
  {
    manager: "pnpm" as const,
    script: "deploy.mjs" as const,
    // Strict: only direct dependencies at the top; the package's own dependencies stay in .pnpm.
    layout: (dir: string) => ({
      pnpmStore: existsSync(join(dir, "node_modules", ".pnpm")),
      packageIsLink: lstatSync(join(dir, "node_modules", "pulumi-shipping-webhooks")).isSymbolicLink(),
      undiciHoisted: existsSync(join(dir, "node_modules", "undici")),
    }),
    expected: { pnpmStore: true, packageIsLink: true, undiciHoisted: false },
  },
  {
    manager: "yarn" as const,
    script: "deploy.cjs" as const,
    // The node-modules linker: a plain node_modules, no Plug'n'Play loader.
    layout: (dir: string) => ({
      pnpLoader: existsSync(join(dir, ".pnp.cjs")),
      packageIsDir: lstatSync(join(dir, "node_modules", "pulumi-shipping-webhooks")).isDirectory(),
    }),
    expected: { pnpLoader: false, packageIsDir: true },
  },
])("the packed tarball installed with $manager", ({ manager, script, layout, expected }) => {
  it(
    `installs in ${manager}'s layout and deploys from ${script}: up, refresh, destroy`,
    async () => {
      const consumer = await installConsumer(repository.root, repository.packed.tarball, {
        name: manager,
        packageManager: manager,
      });
      expect(layout(consumer.dir)).toEqual(expected);
      acme.sim.reset();
      const url = `https://hooks.example.com/consumer/${manager}`;
      const run = await drive(consumer, {
        script,
        pulumiRoot: dist.pulumiCli.pulumiCliRoot(),
        apiKey: ACME_KEY,
        baseUrl: acme.sim.baseUrl,
        hookUrl: url,
        stack: manager,
        operations: "up,refresh,destroy",
        deadlineMs: DEPLOY_DEADLINE_MS,
      });
      const { subscriptionId } = run.report;
      expect(changesOf(run.report)).toEqual(UP_REFRESH_DESTROY);
      const calls = acme.sim.requests().map((r) => [r.method, r.path, r.status]);
      expect(calls).toContainEqual(["GET", `/webhook_subscriptions/${subscriptionId}`, 200]);
      expect(calls.filter(([method]) => method !== "GET")).toEqual([
        ["POST", "/webhook_subscriptions", 200],
        ["DELETE", `/webhook_subscriptions/${subscriptionId}`, 204],
      ]);
      expect(acme.sim.subscriptions("acme")).toEqual([]);
      expect(leaksOf(ACME_KEY, run.stdout + run.stderr)).toEqual([]);
    },
    INSTALL_AND_DEPLOY_MS,
  );
});
