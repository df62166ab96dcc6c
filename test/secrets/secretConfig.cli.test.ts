/**
 * A token-bearing callback URL kept as *secret* stack config, as the `export` note advises, in examples/
 * from-config (hooks from `<project>:hooks`) through the official CLI: it stays encrypted at rest (the stack
 * file, its backups and history) and in a plain `stack export`, and a bad one fails preview without quoting it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { REPO_ROOT } from "../support/engine";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";

const TOKEN = "tok-7f3a9c2e5b";
const SECRET_URL = `https://hooks.example.com/orders?token=${TOKEN}`;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** The from-config example's order_status_change URL, set as secret stack config (`<project>:hooks`). */
async function setOrdersUrl(project: OfficialProject, url: string): Promise<void> {
  await project.ok(["config", "set", "--secret", "--path", "from-config:hooks.order_status_change", url]);
}

describe("hooks from secret stack config (examples/from-config)", () => {
  it("a secret URL is subscribed and never in plain text at rest or in a plain export; a bad one is not quoted", async () => {
    const project = await OfficialProject.create("secret-config", {
      copyOf: join(REPO_ROOT, "examples", "from-config"),
    });
    // The example's package.json and tsconfig.json; its Pulumi.yaml without the example's hooks.
    project.write({ "Pulumi.yaml": "name: from-config\nruntime: nodejs\n" });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    await setOrdersUrl(project, SECRET_URL);

    const up = await project.ok(["up", "--yes"]);
    expect(acme.sim.subscriptions("acme").map(({ hook, url }) => ({ hook, url }))).toEqual([
      { hook: "order_status_change", url: SECRET_URL },
    ]);
    const plainExport = (await project.ok(["stack", "export"])).stdout;
    expect(plainExport).toContain("order_status_change");
    const atRest = [up.stdout, up.stderr, plainExport, ...project.backendFiles()];
    expect(atRest.filter((text) => text.includes(TOKEN))).toEqual([]);

    await setOrdersUrl(project, SECRET_URL.toUpperCase());
    acme.sim.clearRequests();
    const bad = await project.pulumi(["preview"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain(
      "from-config:hooks.order_status_change: the URL (a secret, not shown) must be lowercase",
    );
    expect(`${bad.stdout}${bad.stderr}`.toLowerCase()).not.toContain(TOKEN.toLowerCase());
    // The rule and the config path, not a JavaScript stack of the package's frames (review).
    expect(`${bad.stdout}${bad.stderr}`).not.toMatch(/at hooksFromConfig|hooksFromConfig\.[jt]s:\d+/);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);

    await setOrdersUrl(project, SECRET_URL);
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("a secret URL given in a program that breaks the rule fails the resource naming it and the rule, not the URL", async () => {
    const project = await OfficialProject.create("secret-url", {
      ...typescriptProjectFiles("secret-url"),
      "index.ts": [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { WebhookSubscription } from "pulumi-shipping-webhooks";',
        `new WebhookSubscription("orders", { hook: "order_status_change", url: pulumi.secret("${SECRET_URL.replace("hooks", "Hooks")}") });`,
        "",
      ].join("\n"),
    });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    const bad = await project.pulumi(["preview"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain(
      'WebhookSubscription "orders": url: the URL (a secret, not shown) must be lowercase',
    );
    expect(`${bad.stdout}${bad.stderr}`).not.toContain(TOKEN);
    // On the resource (its check fails with the program's message), not an error of the program's process.
    expect(bad.stdout).toMatch(
      /WebhookSubscription \(orders\):\n {4}error: WebhookSubscription "orders": url:/,
    );
    expect(bad.stdout).not.toContain("error serializing");
    expect(acme.sim.requests()).toEqual([]);
  });

  it("a rule-breaking secret URL fails up, up --exclude and up --target at once (no hang), naming the resource", async () => {
    const badUrl = SECRET_URL.replace("hooks", "Hooks");
    const project = await OfficialProject.create("secret-url-targeted", {
      ...typescriptProjectFiles("secret-url-targeted"),
      "index.ts": [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { WebhookSubscription } from "pulumi-shipping-webhooks";',
        'new WebhookSubscription("labels", { hook: "shipment_label_created", url: "https://hooks.example.com/l" });',
        `new WebhookSubscription("orders", { hook: "order_status_change", url: pulumi.secret("${badUrl}") });`,
        "",
      ].join("\n"),
    });
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    const urn = (name: string) =>
      `urn:pulumi:dev::secret-url-targeted::pulumi-nodejs:dynamic/shipping:WebhookSubscription::${name}`;
    for (const args of [
      ["up", "--yes", "--skip-preview"],
      ["up", "--yes", "--skip-preview", "--exclude", urn("labels")],
      ["up", "--yes", "--skip-preview", "--target", urn("orders")],
    ]) {
      const started = Date.now();
      const bad = await project.pulumi(args);
      expect(bad.status, args.join(" ")).not.toBe(0);
      expect(bad.stdout, args.join(" ")).toContain(
        'WebhookSubscription "orders": url: the URL (a secret, not shown) must be lowercase',
      );
      expect(`${bad.stdout}${bad.stderr}`).not.toContain(TOKEN);
      expect(bad.stdout, args.join(" ")).not.toContain("error serializing");
      // A hang ends only at the engine's own deadline, minutes later.
      expect(Date.now() - started, args.join(" ")).toBeLessThan(60_000);
    }
    expect(acme.sim.subscriptions("acme").filter((s) => s.hook === "order_status_change")).toEqual([]);
  });
});
