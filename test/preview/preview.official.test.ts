/**
 * Previews that show what `up` will do (issue 28), through the official CLI: a refused key or an unreachable
 * API fails `pulumi preview` with the fix; a create opted in to take over a live subscription of its hook
 * warns of nothing (refused without the opt-in: takeover.test.ts); an unchanged resource whose subscription
 * drifted warns on it; a shop that is not pinned is told how to pin it. Never a URL in those messages (any part
 * of one may be a secret).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { startSimulator } from "../../simulator";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";

const PROGRAM = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

const orders = new WebhookSubscription("orders", {
  hook: "order_status_change",
  url: "https://hooks.example.com/orders",
});
const shipments = new WebhookSubscription("shipments", {
  hook: "shipment_status_change",
  url: "https://hooks.example.com/shipments",
});

export const ids = [orders.subscriptionId, shipments.subscriptionId];
`;
const ERP_URL = "https://erp.example.net/callback";
const RESOURCE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

async function project(name: string, key = ACME_KEY, program = PROGRAM): Promise<OfficialProject> {
  const created = await OfficialProject.create(name, {
    ...typescriptProjectFiles(name),
    "index.ts": program,
  });
  await created.initStack(acme.sim.baseUrl, key);
  return created;
}

describe("pulumi preview tells what up will do", () => {
  it("a key the service refuses, or an API that cannot be reached, fails preview with the fix", async () => {
    const failing = await project("preview-key", "not-a-key-of-any-shop");
    const refused = await failing.pulumi(["preview"]);
    expect(refused.status).not.toBe(0);
    // One listing for the shop, not one per resource (under shipping:authScheme auto, a 401 is asked once more
    // with the other scheme word: two requests).
    expect(acme.sim.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "GET /webhook_subscriptions/ 401",
      "GET /webhook_subscriptions/ 401",
    ]);
    // On a resource of the shop (its check fails), not on the Stack as an error serializing one of its inputs;
    // once: the engine stops at the first failed check, and the shop's other resource does not repeat it.
    const diagnostics = refused.stdout.slice(refused.stdout.indexOf("Diagnostics:"));
    expect(diagnostics).toMatch(
      new RegExp(
        `^Diagnostics:\\n  ${RESOURCE} \\((orders|shipments)\\):\\n    error: WebhookSubscription "\\1": the default shop at ${acme.sim.baseUrl}: the service refuses the key in shipping:apiKey \\(401\\)\\. Set the shop's key: \`pulumi config set --secret shipping:apiKey <key>\`\\n`,
      ),
    );
    expect(diagnostics.split("the service refuses the key").length - 1).toBe(1);
    expect(refused.stdout).not.toContain("error serializing");
    // Under --target the engine checks only the targeted resource: it fails the same way.
    const urn = `urn:pulumi:dev::preview-key::${RESOURCE}::shipments`;
    const targeted = await failing.pulumi(["preview", "--target", urn]);
    expect(targeted.status).not.toBe(0);
    expect(targeted.stdout).toContain(
      `WebhookSubscription "shipments": the default shop at ${acme.sim.baseUrl}: the service refuses the key in shipping:apiKey (401)`,
    );
    // The same project, its key now right and its API one that is down.
    const closed = await startSimulator({ shops: TEST_SHOPS });
    const unreachable = closed.baseUrl;
    await closed.close();
    await failing.ok(["config", "set", "shipping:baseUrl", unreachable]);
    await failing.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    const failed = await failing.pulumi(["preview"], { SHIPPING_RETRY: JSON.stringify({ maxRetries: 0 }) });
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).not.toContain("error serializing");
    expect(failed.stdout).toMatch(
      new RegExp(
        `the default shop at ${unreachable.replaceAll(".", "\\.")} cannot be reached \\(.*ECONNREFUSED.*\\)\\. Check shipping:baseUrl, and that the service is up`,
      ),
    );
    // A base URL that answers, but not as the API does (a web page): on the resource too, with what to check.
    const page = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"),
    );
    await new Promise<void>((done) => page.listen(0, "127.0.0.1", done));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    await failing.ok(["config", "set", "shipping:baseUrl", pageUrl]);
    const notApi = await failing.pulumi(["preview"], { SHIPPING_RETRY: JSON.stringify({ maxRetries: 0 }) });
    page.close();
    expect(notApi.status).not.toBe(0);
    expect(notApi.stdout).not.toContain("error serializing");
    expect(notApi.stdout).toMatch(
      new RegExp(
        `Diagnostics:\\n  ${RESOURCE} \\((orders|shipments)\\):\\n    error: WebhookSubscription "\\1": the default shop at ${pageUrl} answers, but not as the Shipping API does \\(.*the body is not JSON\\)\\. Check shipping:baseUrl`,
      ),
    );
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a takeover opted in warns of nothing, drift warns on its resource, and an unpinned shop is told how to pin it", async () => {
    const erp = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
    await erp.create([{ hook: "order_status_change", url: ERP_URL }]);
    // The ERP's subscription is refused by default (test/takeover/takeover.cli.test.ts); this program opts in.
    const shop = await project(
      "preview-warn",
      ACME_KEY,
      PROGRAM.replace(
        'url: "https://hooks.example.com/orders",',
        'url: "https://hooks.example.com/orders",\n  takeOver: true,',
      ),
    );

    const first = await shop.ok(["preview"]);
    expect(first.stdout).not.toMatch(/warning|takes over/);
    expect(first.stdout).toContain(
      "The default shop at " +
        `${acme.sim.baseUrl} is shop_id 1 for the service. Pin it, so that a key of another shop is refused before any write: \`pulumi config set shipping:shopId 1\``,
    );
    expect(first.stdout).not.toContain(ERP_URL);
    // The listing the program hands to the provider (it holds the ERP's URL) is neither shown nor stored.
    const reviewed = await shop.ok(["preview", "--diff"]);
    expect(reviewed.stdout).toMatch(/WebhookSubscription::orders\]\n\s+hook\s+: "order_status_change"/);
    expect(reviewed.stdout).not.toContain(ERP_URL);
    expect(reviewed.stdout).not.toContain("__previewListing");
    // Not even in the engine's verbose log, which prints every input: the handed listing holds digests.
    const verbose = await shop.ok(["preview", "-v=9", "--logtostderr"]);
    expect(verbose.stderr).toContain("__previewListing");
    expect(`${verbose.stdout}${verbose.stderr}`).not.toContain(ERP_URL);

    await shop.ok(["up", "--yes", "--skip-preview"]); // its preview is the one just asserted
    await shop.ok(["config", "set", "shipping:shopId", "1"]);
    const shipments = acme.sim.subscriptions("acme").find((s) => s.hook === "shipment_status_change");
    await erp.delete([shipments?.id as number]); // the back office deletes one hook
    await erp.close();
    acme.sim.clearRequests();
    const drifted = await shop.ok(["preview"]);
    // One GET for the shop: the program's listing serves the provider's pin and identity checks too.
    expect(acme.sim.requests().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /webhook_subscriptions/"]);
    expect(drifted.stdout).toMatch(
      new RegExp(
        `${RESOURCE} shipments[^\\n]*warning: shipping: subscription ${shipments?.id} \\(shipment_status_change\\) of the default shop is gone .* \`pulumi up --refresh\` subscribes the hook again`,
      ),
    );
    expect(drifted.stdout).not.toContain("Pin it");
    await shop.ok(["up", "--yes", "--refresh", "--skip-preview"]);
    expect((await shop.ok(["stack", "export", "--show-secrets"])).stdout).not.toContain("__previewListing");
    expect(
      acme.sim
        .subscriptions("acme")
        .map((s) => s.hook)
        .sort(),
    ).toEqual(["order_status_change", "shipment_status_change"]);
    await shop.ok(["destroy", "--yes", "--skip-preview"]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("a URL not known until another resource is created, plain or secret, previews and deploys", async () => {
    const computed = await project(
      "preview-computed",
      ACME_KEY,
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { WebhookSubscription } from "pulumi-shipping-webhooks";',
        'const a = new WebhookSubscription("a", { hook: "shipment_label_created", url: "https://hooks.example.com/a" });',
        'new WebhookSubscription("b", { hook: "order_status_change", url: pulumi.concat("https://hooks.example.com/b/", a.subscriptionId) });',
        'new WebhookSubscription("c", { hook: "shipment_status_change", url: pulumi.secret(pulumi.concat("https://hooks.example.com/c/", a.subscriptionId)) });',
        "",
      ].join("\n"),
    );
    const preview = await computed.ok(["preview"]);
    expect(preview.stdout).toContain("+ 4 to create");
    await computed.ok(["up", "--yes"]);
    const live = acme.sim.subscriptions("acme");
    const a = live.find((s) => s.hook === "shipment_label_created");
    expect(live.map((s) => [s.hook, s.url]).sort()).toEqual(
      [
        ["order_status_change", `https://hooks.example.com/b/${a?.id}`],
        ["shipment_label_created", "https://hooks.example.com/a"],
        ["shipment_status_change", `https://hooks.example.com/c/${a?.id}`],
      ].sort(),
    );
    await computed.ok(["destroy", "--yes", "--skip-preview"]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });
});
