/**
 * Issue 16, drift detection: the command examples/gitops/.github/workflows/drift.yml runs on a schedule,
 * `pulumi preview --refresh --expect-no-changes --diff`, with the read-only key that workflow gets. Clean, it
 * exits 0 and writes nothing; after a back-office change it exits non-zero and says what drifted.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider/client/shippingClient";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type Declaration,
  declarationsProgram,
  engine,
  filesUnder,
  OutputLog,
  sandbox,
  stackIn,
  subscriptionResources,
} from "../support/engine";
import { ACME_KEY, ACME_READ_ONLY_KEY } from "../support/shops";

const ORDERS = "order_status_change";
const LABELS = "shipment_label_created";
const DECLARED: Declaration[] = [
  { name: "orders", hook: ORDERS, url: "https://hooks.example.com/orders" },
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/labels" },
];
/** Where the back office re-points the orders hook: another host, so both URLs are told apart at a glance. */
const BACK_OFFICE_URL = "https://backoffice.example.net/orders";
/** The engine's verdict when --expect-no-changes finds changes. */
const CHANGES_PROPOSED = /error: no changes were expected for preview but changes were proposed/;
/** A re-pointed subscription, dropped by the refresh, is no resource's: its create is refused as a takeover. */
const REFUSED_TAKEOVER =
  /already has subscription \d+, which calls another URL and which no resource of this stack records/;
/** What the drift workflow (examples/gitops/.github/workflows/drift.yml) takes for drift. */
const DRIFT = new RegExp(`${CHANGES_PROPOSED.source}|${REFUSED_TAKEOVER.source}`);

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** The drift check as the workflow runs it; never throws, so that failures can be asserted on. */
async function driftCheck(stack: Stack): Promise<{ ok: boolean; text: string }> {
  const log = new OutputLog();
  const run = stack.preview({ refresh: true, expectNoChanges: true, diff: true, onOutput: log.onOutput });
  return engine(run, "drift check").then(
    () => ({ ok: true, text: log.text }),
    (error: unknown) => ({ ok: false, text: `${log.text}\n${String(error)}` }),
  );
}

/** A change made outside the stack, as the back office would, with the shop's read-write key. */
async function backOffice(change: (client: ShippingClient) => Promise<unknown>): Promise<void> {
  const client = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
  try {
    await change(client);
  } finally {
    await client.close();
  }
}

const writes = () => acme.sim.requests().filter((r) => r.method !== "GET");

describe("the drift check: pulumi preview --refresh --expect-no-changes", () => {
  it("clean: exit 0, nothing written; a re-pointed or deleted subscription: non-zero, naming what drifted", async () => {
    const box = sandbox("drift-check");
    const program = declarationsProgram(() => DECLARED);
    const config = { "shipping:baseUrl": { value: acme.sim.baseUrl } };
    const deploy = await stackIn(box, program, config, { SHIPPING_API_KEY: ACME_KEY });
    const check = await stackIn(box, program, config, { SHIPPING_API_KEY: ACME_READ_ONLY_KEY });
    await engine(deploy.up(), "up");
    const ids = Object.fromEntries(
      subscriptionResources(await deploy.exportStack()).map((r) => [r.outputs.hook, Number(r.id)]),
    );
    const stateFiles = () =>
      filesUnder(box.backendDir).filter((f) => !f.path.includes(`${box.backendDir}/.pulumi/locks`));
    const stored = stateFiles();

    // Clean: exit 0, reads only, the backend's files untouched.
    acme.sim.clearRequests();
    const clean = await driftCheck(check);
    expect(clean.ok, clean.text).toBe(true);
    expect(acme.sim.requests().length).toBeGreaterThan(0);
    expect(writes()).toEqual([]);
    expect(stateFiles()).toEqual(stored);

    // The back office re-points the orders hook (an edit keeps the subscription's id).
    await backOffice(async (client) => {
      acme.sim.setSwitches({ overwrite: "keep-id" });
      await client.create([{ hook: ORDERS, url: BACK_OFFICE_URL }]);
      acme.sim.setSwitches({ overwrite: "new-id" });
    });
    acme.sim.clearRequests();
    const repointed = await driftCheck(check);
    expect(repointed.ok).toBe(false);
    expect(repointed.text).toMatch(DRIFT);
    expect(repointed.text).toMatch(REFUSED_TAKEOVER);
    // The provider's warning names the hook and the subscription id, and no URL (any part of one may be a
    // secret); the declared URL is in full below.
    expect(repointed.text).toContain(
      `subscription ${ids[ORDERS]} (${ORDERS}) now points at another URL than this resource declared`,
    );
    expect(repointed.text).not.toContain("backoffice.example.net");
    expect(writes()).toEqual([]);
    expect(stateFiles()).toEqual(stored);

    // The back office deletes the labels subscription as well.
    await backOffice((client) => client.delete([ids[LABELS] ?? 0]));
    const deleted = await driftCheck(check);
    expect(deleted.ok).toBe(false);
    expect(deleted.text).toMatch(DRIFT);
    // The refresh drops the deleted one too; the re-pointed one is still refused as a takeover (the engine
    // stops its preview there, so whether it plans the deleted one's create first depends on its order).
    expect(deleted.text).toMatch(/WebhookSubscription::labels\]/);
    expect(deleted.text).toMatch(/- hook\s+: "shipment_label_created"/);
    expect(deleted.text).toMatch(REFUSED_TAKEOVER);
    expect(stateFiles()).toEqual(stored);
  });
});
