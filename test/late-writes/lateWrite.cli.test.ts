/**
 * A POST the service applies after the provider gave up (issue 34, item 2), through the official CLI: behind a
 * gateway or a slow backend the POST times out at the provider (`shipping:timeouts`, small here), and the write
 * lands later (the simulator's `late-apply` fault). The POST is not sent again blind, the create says its
 * outcome is unknown, and the next `up` records what landed. A write of the recorded hook and URL that lands
 * after the record (a new id, under the service's new-id overwrite) is the resource's: refresh records it and
 * destroy deletes it, so nothing is left live and in no state. Judged by the simulator's live subscriptions
 * and the stack's state.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";

const HOOK = "order_status_change";
const FIRST_URL = "https://hooks.example.com/orders";
const SECOND_URL = "https://hooks.example.com/orders-v2";
/**
 * The provider gives up waiting for an answer after this long (undici's timers are coarse, about half a second
 * more); the late write lands well after the create listed the shop again.
 */
const TIMEOUTS = JSON.stringify({ headersMs: 1_000, deadlineMs: 30_000 });
const LATE_MS = 5_000;

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { WebhookSubscription } from "pulumi-shipping-webhooks";

const config = new pulumi.Config();
new WebhookSubscription("orders", { hook: "${HOOK}", url: config.require("url") });
`;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** The shop's live subscriptions as hook, URL and id. */
const live = () => acme.sim.subscriptions("acme").map(({ id, hook, url }) => ({ id, hook, url }));

/** Waits (polling, with a deadline) until the held POST was applied by the service. */
async function lateWriteLanded(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!acme.sim.requests().some((r) => r.fault === "late-apply" && r.appliedStatus !== undefined)) {
    if (Date.now() > deadline) throw new Error("the held POST was never applied");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same hook and URL written again outside the stack: what a late write does, a new id. */
async function writtenAgain(url: string): Promise<number> {
  const answer = await fetch(`${acme.sim.baseUrl}/webhook_subscriptions`, {
    method: "POST",
    headers: {
      authorization: `bearer ${Buffer.from(ACME_KEY).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ data: { webhook_subscriptions: [{ hook: HOOK, url }] } }),
  });
  const body = (await answer.json()) as { data: { ids: { id: number }[] } };
  return body.data.ids[0]?.id as number;
}

describe("a POST the service applies after the provider gave up", () => {
  it("is never sent again blind; what lands is recorded, follows the declared URL, and destroy leaves nothing", async () => {
    const project = await OfficialProject.create("late-write", {
      ...typescriptProjectFiles("late-write"),
      "index.ts": PROGRAM,
    });
    const env = { SHIPPING_TIMEOUTS: TIMEOUTS };
    await project.initStack(acme.sim.baseUrl, ACME_KEY);
    await project.ok(["config", "set", "url", FIRST_URL]);

    // The POST times out at the provider; the service applies it later.
    acme.sim.addFault({ kind: "late-apply", ms: LATE_MS, method: "POST", count: 1 });
    const first = await project.pulumi(["up", "--yes", "--skip-preview"], env);
    const said = `${first.stdout}${first.stderr}`;
    expect(first.status).not.toBe(0);
    expect(said).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions/);
    expect(said).toContain("Its outcome is unknown");
    expect(said).toContain("so it was not sent again");
    expect(said).not.toContain(ACME_KEY);
    expect(acme.sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
    await lateWriteLanded();
    const landed = live();
    expect(landed).toMatchObject([{ hook: HOOK, url: FIRST_URL }]);

    // The next up adopts what landed, with no write: state records the live id.
    acme.sim.clearRequests();
    await project.ok(["up", "--yes", "--skip-preview"], env);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(live()).toEqual(landed);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(landed[0]?.id)]);

    // A write of the same hook and URL lands after the record (a new id): refresh records it, saying why.
    const later = await writtenAgain(FIRST_URL);
    const refresh = await project.ok(["refresh", "--yes", "--skip-preview"], env);
    expect(`${refresh.stdout}${refresh.stderr}`).toContain(`as subscription ${later}`);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(later)]);

    // A URL change: the hook ends on the declared URL, recorded by its live id.
    await project.ok(["config", "set", "url", SECOND_URL]);
    await project.ok(["up", "--yes", "--skip-preview"], env);
    const declared = live();
    expect(declared).toMatchObject([{ hook: HOOK, url: SECOND_URL }]);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(declared[0]?.id)]);

    // Another late write of the recorded hook and URL; destroy deletes it: nothing live, nothing in state.
    await writtenAgain(SECOND_URL);
    await project.ok(["destroy", "--yes", "--skip-preview"], env);
    expect(live()).toEqual([]);
    expect(await project.subscriptions()).toEqual([]);
  });
});
