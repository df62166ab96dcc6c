import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type ConsumerProject,
  changesOf,
  consumerEnv,
  drive,
  installConsumer,
  UP_REFRESH_DESTROY,
  undeclaredRequires,
  usePackedRepository,
} from "../support/consumer";
import { dist, REPO_ROOT, stateResources } from "../support/engine";
import { runOk } from "../support/process";
import { ACME_KEY, leaksOf } from "../support/shops";

/** One deploy script: Node start, Automation API, CLI up and destroy, on a loaded machine. */
const DEPLOY_DEADLINE_MS = 240_000;
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();
/** The repository packed into a temporary root, where the consumer is installed. */
const repository = usePackedRepository({ packMs: 300_000, cleanupMs: 300_000 });
let consumer: ConsumerProject;

beforeAll(async () => {
  consumer = await installConsumer(repository.root, repository.packed.tarball);
}, 600_000);

describe("the npm package", () => {
  it("packs the built contract, provider and simulator, package.json and the documents the README links to, nothing else", () => {
    const outside = repository.packed.files.filter(
      (path) =>
        !/^(dist\/contract\/|dist\/provider\/|dist\/simulator\/|docs\/[a-z-]+\.md$|simulator\/README\.md$|(README|CHANGELOG|CONTRIBUTING)\.md$|LICENSE$|package\.json$)/.test(
          path,
        ),
    );
    expect(outside).toEqual([]);
    for (const entry of [
      "dist/contract/hooks.js",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/provider/runtime.js",
      "dist/provider/cli/index.js",
      "dist/simulator/index.js",
    ]) {
      expect(repository.packed.files).toContain(entry);
    }
    expect(repository.packed.files.filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts"))).toEqual(
      [],
    );
  });

  it("packs only modules that have a source: none left in dist/ by a file moved or deleted", () => {
    const withoutSource = repository.packed.files.filter(
      (path) =>
        path.endsWith(".js") &&
        !existsSync(join(REPO_ROOT, path.replace(/^dist\//, "").replace(/\.js$/, ".ts"))),
    );
    expect(withoutSource).toEqual([]);
  });

  it("requires at run time nothing but Node built-ins, its dependencies and its peer @pulumi/pulumi", () => {
    expect(undeclaredRequires(join(consumer.dir, "node_modules", "pulumi-shipping-webhooks"))).toEqual([]);
  });

  it.each([
    ["deploy.mjs", "esm"],
    ["deploy.cjs", "cjs"],
  ])("%s deploys from the consumer's node_modules, then destroys", async (script, flavour) => {
    acme.sim.reset();
    const url = `https://hooks.example.com/consumer/${flavour}`;
    const run = await drive(consumer, {
      script: script as "deploy.mjs" | "deploy.cjs",
      pulumiRoot: dist.pulumiCli.pulumiCliRoot(),
      apiKey: ACME_KEY,
      baseUrl: acme.sim.baseUrl,
      hookUrl: url,
      deadlineMs: DEPLOY_DEADLINE_MS,
    });
    const { subscriptionId } = run.report;
    expect(changesOf(run.report)).toEqual(UP_REFRESH_DESTROY);
    const writes = acme.sim.requests().filter((r) => r.method !== "GET");
    expect(writes.map((r) => [r.method, r.path, r.status])).toEqual([
      ["POST", "/webhook_subscriptions", 200],
      ["DELETE", `/webhook_subscriptions/${subscriptionId}`, 204],
    ]);
    expect(writes[0]?.body).toEqual({
      data: { webhook_subscriptions: [{ hook: "order_status_change", url }] },
    });
    expect(acme.sim.subscriptions("acme")).toEqual([]);

    const state = JSON.parse(readFileSync(join(consumer.dir, `state-consumer-${flavour}.json`), "utf8"));
    const resource = stateResources(state).find((r) => r.type.endsWith("shipping:WebhookSubscription"));
    const shim = String(resource?.inputs.__provider);
    expect(shim).toContain('require("pulumi-shipping-webhooks/runtime")');
    expect(Buffer.byteLength(shim)).toBeLessThanOrEqual(400);
    for (const path of [
      REPO_ROOT,
      consumer.dir,
      repository.root,
      tmpdir(),
      homedir(),
      "node_modules",
      "/dist/",
    ]) {
      expect(shim, `__provider contains ${path}`).not.toContain(path);
    }
    expect(leaksOf(ACME_KEY, shim + run.stdout + run.stderr)).toEqual([]);
  });

  it("installs the export CLI as a bin whose TypeScript output type-checks as CJS and ESM", async () => {
    acme.sim.reset();
    const client = new dist.provider.ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
    await client.create([
      { hook: "shipment_label_created", url: "https://hooks.example.com/consumer/labels" },
    ]);
    await client.close();
    // The installed bin, run outside a project folder (the consumer is one: there export reads its stack
    // through the pulumi CLI), so that it reads the SHIPPING_* environment.
    const outside = join(repository.root, "outside-a-project");
    mkdirSync(outside, { recursive: true });
    const bin = join(consumer.dir, "node_modules", ".bin", "pulumi-shipping-webhooks");
    const run = await runOk(bin, ["export"], {
      cwd: outside,
      env: consumerEnv({ SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: acme.sim.baseUrl }),
      deadlineMs: 120_000,
    });
    expect(run.stdout).toContain('url: "https://hooks.example.com/consumer/labels"');
    writeFileSync(join(consumer.dir, "adopted.ts"), run.stdout);
    writeFileSync(join(consumer.dir, "adopted.mts"), run.stdout);
    const flags = ["--noEmit", "--strict", "--module", "node16", "--target", "es2022", "--skipLibCheck"];
    await runOk(process.execPath, [TSC, ...flags, "adopted.ts", "adopted.mts"], {
      cwd: consumer.dir,
      env: consumerEnv({}),
      deadlineMs: 120_000,
    });
  });
});
