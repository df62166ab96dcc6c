import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { CLI_PATH, removeScratch, runCli, SCRATCH, stackProject } from "../support/cli";
import { dist, REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";
import { ACME_KEY, GLOBEX_KEY, leaksOf, TEST_SHOPS } from "../support/shops";

const acme = useAcmeSimulator();
afterAll(() => removeScratch());

const SHOPS = JSON.stringify({ acme: { apiKey: ACME_KEY }, globex: { apiKey: GLOBEX_KEY } });
const NO_RETRY = JSON.stringify({ maxRetries: 0 });

async function seed(apiKey: string, subscriptions: Array<{ hook: string; url: string }>): Promise<number[]> {
  const client = new dist.provider.ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey });
  try {
    return await client.create(subscriptions);
  } finally {
    await client.close();
    acme.sim.clearRequests();
  }
}

describe("pulumi-shipping-webhooks export: the command line", () => {
  it("--help prints the usage and exits 0", async () => {
    const run = await runCli(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: pulumi-shipping-webhooks export [--stack <name>] [--shop <name>]");
  });

  it("loads no @pulumi/pulumi module, so it starts fast", async () => {
    const probe = `require(${JSON.stringify(CLI_PATH)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)))`;
    const run = await runProcess(process.execPath, ["-e", probe], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "" },
      deadlineMs: 60_000,
    });
    const loaded = JSON.parse(run.stdout) as string[];
    expect(loaded).toContain(CLI_PATH);
    expect(loaded.filter((path) => path.includes("@pulumi"))).toEqual([]);
  });

  it.each([
    [[], "missing command"],
    [["import"], 'unknown command "import"'],
    [["export", "--format", "json"], "--format must be ts or yaml"],
    [["export", "--shop", "Acme Inc"], '--shop "Acme Inc" is not a shop name'],
    [["export", "--project", "a b"], '--project "a b" is not a Pulumi project name'],
    [["export", "--stack", "a b"], '--stack "a b" is not a stack name'],
    [["export", "--verbose"], "Unknown option '--verbose'"],
    [
      ["export", "--base-url", "http://api.example.com"],
      '--base-url: "http://api.example.com" must use HTTPS',
    ],
  ])("%j exits 2 with %s and the usage", async (args, message) => {
    const run = await runCli(args as string[], {
      SHIPPING_API_KEY: ACME_KEY,
      SHIPPING_BASE_URL: acme.sim.baseUrl,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage:");
    expect(run.stdout).toBe("");
    expect(acme.sim.requests()).toEqual([]);
  });
});

describe("pulumi-shipping-webhooks export: errors are the provider's, exit 1", () => {
  it("without a key: the configuration message, and no request", async () => {
    const run = await runCli(["export"], { SHIPPING_BASE_URL: acme.sim.baseUrl });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("shipping:apiKey: is not set");
    expect(run.stderr).toContain("SHIPPING_API_KEY");
    expect(acme.sim.requests()).toEqual([]);
  });

  it("only shipping:shops and no --shop: names --shop and the configured shops, no request", async () => {
    const run = await runCli(["export"], { SHIPPING_SHOPS: SHOPS, SHIPPING_BASE_URL: acme.sim.baseUrl });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "shipping:apiKey: is not set in the environment, so there is no default shop to export; name one of shipping:shops with --shop (acme, globex), for example `export --shop acme`",
    );
    expect(acme.sim.requests()).toEqual([]);
  });

  it("a shop missing from SHIPPING_SHOPS, or no base URL: the configuration message", async () => {
    const noShop = await runCli(["export", "--shop", "initech"], {
      SHIPPING_SHOPS: SHOPS,
      SHIPPING_BASE_URL: acme.sim.baseUrl,
    });
    expect(noShop.status).toBe(1);
    expect(noShop.stderr).toContain('shipping:shops: has no shop "initech"');
    const noBase = await runCli(["export"], { SHIPPING_API_KEY: ACME_KEY });
    expect(noBase.status).toBe(1);
    expect(noBase.stderr).toContain("shipping:baseUrl: is not set");
  });

  it("a wrong key: the ShippingError message with the API's answer and a hint, the key redacted", async () => {
    const wrongKey = "acme-wrong-key-99";
    const run = await runCli(["export"], { SHIPPING_API_KEY: wrongKey, SHIPPING_BASE_URL: acme.sim.baseUrl });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Request failed with status code 401 .*GET .*\/webhook_subscriptions\//);
    expect(run.stderr).toContain("hint: check the API key");
    expect(leaksOf(wrongKey, run.stdout + run.stderr)).toEqual([]);
  });

  it("an API that is down: the connection error, after the configured retries", async () => {
    const closed = await startSimulator({ shops: TEST_SHOPS });
    const baseUrl = closed.baseUrl;
    await closed.close();
    const run = await runCli(["export"], {
      SHIPPING_API_KEY: ACME_KEY,
      SHIPPING_BASE_URL: baseUrl,
      SHIPPING_RETRY: NO_RETRY,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Request failed: GET .*ECONNREFUSED/);
  });
});

describe("pulumi-shipping-webhooks export: output", () => {
  it("TypeScript: one WebhookSubscription per live subscription, in hook order, for the default shop", async () => {
    await seed(ACME_KEY, [
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders" },
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
    ]);
    await seed(GLOBEX_KEY, [{ hook: "shipment_label_created", url: "https://hooks.example.com/globex" }]);
    const run = await runCli(["export"], { SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: acme.sim.baseUrl });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('import { WebhookSubscription } from "pulumi-shipping-webhooks";');
    // Top-level statements (what the language host runs in a CommonJS project), each id a stack output.
    expect(run.stdout).not.toContain("export default");
    expect(run.stdout).toContain("export const orderStatusChangeId = orderStatusChange.subscriptionId;");
    const declared = [
      ...run.stdout.matchAll(
        /new WebhookSubscription\("([a-z_]+)", \{\s+hook: "\1",\s+url: "([^"]+)",\s+\}\);/g,
      ),
    ];
    expect(declared.map((m) => [m[1], m[2]])).toEqual([
      ["shipment_status_change", "https://hooks.example.com/acme/shipments"],
      ["order_status_change", "https://hooks.example.com/acme/orders"],
    ]);
    expect(run.stdout).not.toContain("globex");
    // It says how to pin the shop (README, "Pin the shop"), with the shop_id the service reports for acme.
    expect(run.stdout).toMatch(
      /^\/\/ The service reports shop_id "(\d+)": pin it with `pulumi config set shipping:shopId "\1"`\.$/m,
    );
    expect(run.stderr).toBe("");
    expect(acme.sim.requests().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /webhook_subscriptions/"]);
  });

  it("YAML for --shop: the shop and the <project>:hooks map; --base-url wins over the environment", async () => {
    await seed(GLOBEX_KEY, [
      { hook: "shipment_label_created", url: "https://hooks.example.com/globex/labels?token=t1" },
    ]);
    const run = await runCli(
      [
        "export",
        "--shop",
        "globex",
        "--format",
        "yaml",
        "--project",
        "webhooks",
        "--base-url",
        acme.sim.baseUrl,
      ],
      { SHIPPING_SHOPS: SHOPS, SHIPPING_BASE_URL: "https://unused.example.com" },
    );
    expect(run.status).toBe(0);
    const config = run.stdout.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    expect(config).toEqual([
      "config:",
      '  webhooks:shop: "globex"',
      "  webhooks:hooks:",
      '    shipment_label_created: "https://hooks.example.com/globex/labels?token=t1"',
    ]);
    expect(run.stderr).toContain("note: some callback URLs carry a query string");
    expect(run.stdout).toMatch(
      /^# The service reports shop_id "([^"]+)": pin it with `pulumi config set --path 'shipping:shops\.globex\.shopId' "\1"`\.$/m,
    );
  });

  it("an empty shop: a program with no resource, and an empty hooks map", async () => {
    const env = { SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: acme.sim.baseUrl };
    const ts = await runCli(["export"], env);
    expect(ts.stdout).toContain("0 live subscriptions to adopt");
    expect(ts.stdout).not.toMatch(/new WebhookSubscription|^export /m);
    const yaml = await runCli(["export", "--format", "yaml"], env);
    expect(yaml.stdout).toContain("  from-config:hooks: {}");
  });
});

describe("pulumi-shipping-webhooks export in a project: the stack's config, through the real pulumi CLI", () => {
  it("--stack reads the stack's secret keys; names by shop and hook; the pin command names the stack", async () => {
    await seed(ACME_KEY, [{ hook: "order_status_change", url: "https://hooks.example.com/acme/orders" }]);
    await seed(GLOBEX_KEY, [{ hook: "shipment_label_created", url: "https://hooks.example.com/globex" }]);
    const project = stackProject("shop-hooks");
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
    await project.pulumi(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    await project.pulumi(["config", "set", "--secret", "--path", "shipping:shops.globex.apiKey", GLOBEX_KEY]);
    await project.pulumi(["stack", "init", "empty"]);
    const runs = {
      acme: await runCli(["export", "--stack", "dev"], project.env, project.dir),
      globex: await runCli(["export", "--stack", "dev", "--shop", "globex"], project.env, project.dir),
      yaml: await runCli(["export", "--stack", "dev", "--format", "yaml"], project.env, project.dir),
    };
    for (const run of Object.values(runs)) {
      expect(run.status, run.stderr).toBe(0);
      expect([
        ...leaksOf(ACME_KEY, run.stdout + run.stderr),
        ...leaksOf(GLOBEX_KEY, run.stdout + run.stderr),
      ]).toEqual([]);
    }
    expect(runs.acme.stdout).toContain('new WebhookSubscription("order_status_change", {');
    expect(runs.acme.stdout).toContain(
      "export const orderStatusChangeId = orderStatusChange.subscriptionId;",
    );
    expect(runs.acme.stdout).toMatch(
      /^\/\/ The service reports shop_id "\d+": pin it with `pulumi config set shipping:shopId "\d+" --stack dev`\.$/m,
    );
    expect(runs.acme.stdout).toContain("(stack dev)");
    // index.ts imports nothing yet: the program is a whole index.ts.
    expect(runs.acme.stdout).toContain('import { WebhookSubscription } from "pulumi-shipping-webhooks";');
    expect(runs.globex.stdout).toContain('new WebhookSubscription("globex-shipment_label_created", {');
    expect(runs.globex.stdout).toContain('  shop: "globex",');
    expect(runs.globex.stdout).toContain(
      "export const globexShipmentLabelCreatedId = globexShipmentLabelCreated.subscriptionId;",
    );
    expect(runs.globex.stdout).toMatch(
      /pulumi config set --path 'shipping:shops\.globex\.shopId' "[^"]+" --stack dev`/,
    );
    // The YAML keys are the project's own by default.
    expect(runs.yaml.stdout).toContain("  shop-hooks:hooks:\n    order_status_change:");

    // Without --stack: the selected stack (empty, which has no key; the environment has none either).
    const selected = await runCli(["export"], project.env, project.dir);
    expect(selected.status).toBe(1);
    expect(selected.stderr).toContain("shipping:apiKey: is not set");
    expect(selected.stderr).toContain("stack empty");
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a URL that holds a secret of the stack's config is left out, never printed", async () => {
    const token = "tok-9c1e7a55";
    const secretUrl = `https://hooks.example.com/${token}/orders`;
    await seed(ACME_KEY, [
      { hook: "order_status_change", url: secretUrl },
      { hook: "shipment_label_created", url: "https://hooks.example.com/labels" },
    ]);
    const project = stackProject("shop-hooks");
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
    await project.pulumi(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    await project.pulumi([
      "config",
      "set",
      "--secret",
      "--path",
      "shop-hooks:hooks.order_status_change",
      secretUrl,
    ]);
    for (const format of ["ts", "yaml"]) {
      const run = await runCli(["export", "--stack", "dev", "--format", format], project.env, project.dir);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(token);
      expect(run.stdout).toContain("shipment_label_created");
      expect(run.stdout).not.toContain("order_status_change:");
      expect(run.stderr).toMatch(
        /skipped subscription \d+ \(order_status_change\): its URL holds a secret of stack dev's config, which export never prints/,
      );
    }
  });

  it("a stack that does not exist: exit 1 naming --stack and what pulumi said, no request", async () => {
    const project = stackProject("shop-hooks");
    await project.pulumi(["stack", "init", "dev"]);
    const run = await runCli(["export", "--stack", "prod"], project.env, project.dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("--stack prod:");
    expect(run.stderr).toMatch(/pulumi config .*--stack prod/);
    expect(run.stderr).toContain("prod");
    expect(acme.sim.requests()).toEqual([]);
  });

  it("a project with no stack yet: the environment, and a note that says so", async () => {
    await seed(ACME_KEY, [{ hook: "order_status_change", url: "https://hooks.example.com/acme/orders" }]);
    const project = stackProject("fresh");
    const run = await runCli(
      ["export"],
      { ...project.env, SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: acme.sim.baseUrl },
      project.dir,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('new WebhookSubscription("order_status_change", {');
    expect(run.stderr).toContain("project fresh has no stack yet");
  });

  it("--stack outside a project, or no pulumi on PATH: exit 1 with the rule and the fix, no request", async () => {
    const outside = await runCli(["export", "--stack", "dev"], {
      SHIPPING_API_KEY: ACME_KEY,
      SHIPPING_BASE_URL: acme.sim.baseUrl,
    });
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain(`--stack dev: no Pulumi.yaml in ${SCRATCH} or a folder above it`);
    const project = stackProject("no-cli");
    const noCli = await runCli(["export", "--stack", "dev"], { ...project.env, PATH: SCRATCH }, project.dir);
    expect(noCli.status).toBe(1);
    expect(noCli.stderr).toContain("the Pulumi CLI (pulumi) is not on PATH");
    expect(noCli.stderr).toContain("https://www.pulumi.com/docs/install/");
    expect(acme.sim.requests()).toEqual([]);
  });
});
