/**
 * `npx pulumi-shipping-webhooks export`, run in a project as the README says, its output pasted verbatim as
 * the project's index.ts (or, in a deployed project, added to it): the official CLI's `pulumi up` takes the
 * live subscriptions over without a write, and the stack then previews with no change.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { REPO_ROOT } from "../support/engine";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { runProcess } from "../support/process";
import { ACME_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

const EXPORT_DEADLINE_MS = 60_000;

/** The simulator of this file, reset before each test. */
const service = useAcmeSimulator();

/** Subscriptions made directly at the API, as the back office or another tool would have. */
async function seed(subscriptions: Array<{ hook: string; url: string }>, apiKey = ACME_KEY): Promise<void> {
  const client = new ShippingClient({ baseUrl: service.sim.baseUrl, apiKey });
  try {
    await client.create(subscriptions);
  } finally {
    await client.close();
  }
}

describe("export's program, pasted into a project", () => {
  it("up adopts every live subscription with no write; then nothing changes", async () => {
    await seed([
      { hook: "shipment_label_created", url: "https://hooks.example.com/acme/labels" },
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders" },
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
    ]);
    const live = service.sim.subscriptions("acme");
    const project = await OfficialProject.create("exported", typescriptProjectFiles("exported"));
    const exported = await runProcess("npx", ["--no-install", "pulumi-shipping-webhooks", "export"], {
      cwd: project.dir,
      env: { ...project.env, SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: service.sim.baseUrl },
      deadlineMs: EXPORT_DEADLINE_MS,
    });
    expect(exported.status, exported.stderr).toBe(0);
    project.write({ "index.ts": exported.stdout });
    await project.initStack(service.sim.baseUrl, ACME_KEY);

    service.sim.clearRequests();
    await project.ok(["up", "--yes"]);
    expect(service.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(service.sim.subscriptions("acme")).toEqual(live);
    const state = await project.subscriptions();
    expect(state.map((r) => `${r.outputs?.hook}=${r.id}`).sort()).toEqual(
      live.map((s) => `${s.hook}=${s.id}`).sort(),
    );

    await project.ok(["preview", "--expect-no-changes"]);
    const again = await project.ok(["up", "--yes"]);
    expect(again.stdout).toMatch(/4 unchanged/);
    expect(service.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("--format yaml as Pulumi.dev.yaml of examples/from-config adopts one shop's subscriptions, no write", async () => {
    await seed([
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders?token=t1" },
    ]);
    const live = service.sim.subscriptions("acme");
    // The example as it is: its Pulumi.yaml, package.json and tsconfig.json.
    const project = await OfficialProject.create("exported-yaml", {
      copyOf: join(REPO_ROOT, "examples", "from-config"),
    });
    const shops = JSON.stringify({ acme: { apiKey: ACME_KEY } });
    const env = { ...project.env, SHIPPING_SHOPS: shops, SHIPPING_BASE_URL: service.sim.baseUrl };
    const exported = await runProcess(
      "npx",
      ["--no-install", "pulumi-shipping-webhooks", "export", "--shop", "acme", "--format", "yaml"],
      { cwd: project.dir, env, deadlineMs: EXPORT_DEADLINE_MS },
    );
    expect(exported.status, exported.stderr).toBe(0);
    project.write({ "Pulumi.dev.yaml": exported.stdout });
    await project.ok(["stack", "init", "dev"]);
    // The stack file is the CLI's output (the engine only adds its encryption salt).
    expect(readFileSync(join(project.dir, "Pulumi.dev.yaml"), "utf8")).toContain(exported.stdout.trim());

    service.sim.clearRequests();
    await project.ok(["up", "--yes"], { SHIPPING_SHOPS: shops, SHIPPING_BASE_URL: service.sim.baseUrl });
    expect(service.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(service.sim.subscriptions("acme")).toEqual(live);
    const state = await project.subscriptions();
    expect(state.map((r) => `${r.outputs?.shop}/${r.outputs?.hook}=${r.id}`).sort()).toEqual(
      live.map((s) => `acme/${s.hook}=${s.id}`).sort(),
    );
    await project.ok(["preview", "--expect-no-changes"], {
      SHIPPING_SHOPS: shops,
      SHIPPING_BASE_URL: service.sim.baseUrl,
    });
  });
});

/** The README's program: the stack declares acme's order hook as `orders`. */
const ORDERS_PROGRAM = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

const orders = new WebhookSubscription("orders", {
  hook: "order_status_change",
  url: "https://hooks.example.com/acme/orders",
});

export const orderHookId = orders.subscriptionId;
`;

describe("export --stack in a deployed project whose keys are stack config", () => {
  it("leaves out what the stack records; its program, added to index.ts, adopts the rest with no write", async () => {
    await seed([
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders" },
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
      { hook: "shipment_label_created", url: "https://hooks.example.com/acme/labels" },
    ]);
    await seed(
      [{ hook: "shipment_label_created", url: "https://hooks.example.com/globex/labels" }],
      GLOBEX_KEY,
    );
    const live = [...service.sim.subscriptions("acme"), ...service.sim.subscriptions("globex")];
    const expected = [
      ...service.sim.subscriptions("acme").map((s) => `/${s.hook}=${s.id}`),
      ...service.sim.subscriptions("globex").map((s) => `globex/${s.hook}=${s.id}`),
    ].sort();
    const orders = live.find((s) => s.hook === "order_status_change");
    const project = await OfficialProject.create("exported-stack", {
      ...typescriptProjectFiles("exported-stack"),
      "index.ts": ORDERS_PROGRAM,
    });
    await project.initStack(service.sim.baseUrl, ACME_KEY);
    await project.ok(["config", "set", "--secret", "--path", "shipping:shops.globex.apiKey", GLOBEX_KEY]);
    await project.ok(["up", "--yes"]);
    expect((await project.subscriptions()).map((r) => `${r.urn.split("::").pop()}=${r.id}`)).toEqual([
      `orders=${orders?.id}`,
    ]);
    // Another stack is selected: --stack names the one to read. No SHIPPING_* variable is set.
    await project.ok(["stack", "init", "other"]);

    const exportOf = async (args: string[]) => {
      const run = await runProcess("npx", ["--no-install", "pulumi-shipping-webhooks", "export", ...args], {
        cwd: project.dir,
        env: project.env,
        deadlineMs: EXPORT_DEADLINE_MS,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(leaksOf(ACME_KEY, run.stdout + run.stderr)).toEqual([]);
      expect(leaksOf(GLOBEX_KEY, run.stdout + run.stderr)).toEqual([]);
      return run;
    };
    const declared = (program: string) =>
      [...program.matchAll(/new WebhookSubscription\("([a-z_-]+)", \{\s+hook: "([a-z_]+)",/g)].map(
        (m) => `${m[1]}:${m[2]}`,
      );
    const acme = await exportOf(["--stack", "dev"]);
    // The subscription the stack records as `orders` is left out, and said so; the rest keep the hook's name.
    expect(declared(acme.stdout)).toEqual([
      "shipment_status_change:shipment_status_change",
      "shipment_label_created:shipment_label_created",
    ]);
    expect(acme.stdout).toContain(
      `subscription ${orders?.id} (order_status_change): stack dev records it as "orders"`,
    );
    expect(acme.stdout).toMatch(/pulumi config set shipping:shopId "\d+" --stack dev`/);
    // index.ts imports WebhookSubscription already, so the program added to it does not import it again.
    expect(acme.stdout).not.toMatch(/^import /m);
    const globex = await exportOf(["--stack", "dev", "--shop", "globex"]);
    expect(declared(globex.stdout)).toEqual(["globex-shipment_label_created:shipment_label_created"]);
    expect(globex.stdout).toContain('  shop: "globex",');

    project.write({ "index.ts": ORDERS_PROGRAM + acme.stdout + globex.stdout });
    await project.ok(["stack", "select", "dev"]);
    service.sim.clearRequests();
    await project.ok(["up", "--yes"]);
    expect(service.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect([...service.sim.subscriptions("acme"), ...service.sim.subscriptions("globex")]).toEqual(live);
    const state = await project.subscriptions();
    expect(state.map((r) => `${r.outputs?.shop ?? ""}/${r.outputs?.hook}=${r.id}`).sort()).toEqual(expected);
    await project.ok(["preview", "--expect-no-changes"]);

    // Now that the stack records every live subscription, export has nothing left to adopt.
    const again = await exportOf([]);
    expect(declared(again.stdout)).toEqual([]);
    expect(again.stdout).toContain("0 live subscriptions to adopt");
    // `export > index.ts` empties the program first: export warns that this output would not replace it.
    project.write({ "index.ts": "" });
    const replacing = await exportOf([]);
    expect(replacing.stderr).toContain(
      "stack dev records 4 WebhookSubscription(s), which this program does not declare: add it to the program",
    );
    expect(service.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });
});
