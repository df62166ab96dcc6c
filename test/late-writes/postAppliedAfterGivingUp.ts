/**
 * A POST the service applies after the provider gave up (issue 34, item 2), through the official CLI: behind a
 * gateway or a slow backend the POST times out at the provider (`SHIPPING_TIMEOUTS`, small here), and the write
 * lands later (the simulator's `late-apply` fault). The POST is not sent again blind, the create says its
 * outcome is unknown, and the next `up` records what landed. A write of the recorded hook and URL that lands
 * after the record (a new id, under the service's new-id overwrite) is the resource's: refresh records it and
 * destroy deletes it, so nothing is left live and in no state. Judged by the simulator's live subscriptions
 * and the stack's state.
 *
 * One scenario, each assertion written once, run under both hosts: the TypeScript class (dynamic host,
 * lateWrite.cli.test.ts) and the provider plugin (lateWrite.plugin.test.ts). Each gives its simulator, its
 * project factory and its program.
 */
import { expect } from "vitest";
import type { AcmeSimulator } from "../support/acmeSimulator";
import type { OfficialProject } from "../support/officialProject";
import { ORDERS } from "../support/services";
import { ACME_KEY } from "../support/shops";

/** The hook the program declares (one resource, `orders`). */
export const HOOK = ORDERS;
const FIRST_URL = "https://hooks.example.com/orders";
const SECOND_URL = "https://hooks.example.com/orders-v2";
/**
 * The provider gives up waiting for an answer after this long (undici's timers are coarse, about half a second
 * more); the late write lands well after the create listed the shop again.
 */
const TIMEOUTS = JSON.stringify({ headersMs: 1_000, deadlineMs: 30_000 });
const LATE_MS = 5_000;

/** How one host's test file runs the scenario. */
export interface LateWriteHost {
  /** The file's simulator (reset before each test). */
  readonly acme: Pick<AcmeSimulator, "sim">;
  /** A project folder of `program` (its index.ts) with a stack `dev` of acme's base URL and key (a secret). */
  project(name: string, program: string): Promise<OfficialProject>;
  /** The program: one resource `orders` of {@link HOOK}, its URL the project's config `url`. */
  readonly program: string;
}

/**
 * The scenario: a POST that times out and lands later is never sent again blind; what lands is recorded,
 * follows the declared URL, and destroy leaves nothing.
 */
export async function postAppliedAfterGivingUp(host: LateWriteHost): Promise<void> {
  const { sim } = host.acme;
  /** The shop's live subscriptions as hook, URL and id. */
  const live = () => sim.subscriptions("acme").map(({ id, hook, url }) => ({ id, hook, url }));

  const project = await host.project("late-write", host.program);
  const env = { SHIPPING_TIMEOUTS: TIMEOUTS };
  await project.ok(["config", "set", "url", FIRST_URL]);

  // The POST times out at the provider; the service applies it later.
  sim.addFault({ kind: "late-apply", ms: LATE_MS, method: "POST", count: 1 });
  const first = await project.pulumi(["up", "--yes", "--skip-preview"], env);
  const said = `${first.stdout}${first.stderr}`;
  expect(first.status).not.toBe(0);
  expect(said).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions/);
  expect(said).toContain("Its outcome is unknown");
  expect(said).toContain("so it was not sent again");
  expect(said).not.toContain(ACME_KEY);
  expect(sim.requests().filter((r) => r.method === "POST")).toHaveLength(1);
  await lateWriteLanded(host.acme);
  const landed = live();
  expect(landed).toMatchObject([{ hook: HOOK, url: FIRST_URL }]);

  // The next up adopts what landed, with no write: state records the live id.
  sim.clearRequests();
  await project.ok(["up", "--yes", "--skip-preview"], env);
  expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  expect(live()).toEqual(landed);
  expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(landed[0]?.id)]);

  // A write of the same hook and URL lands after the record (a new id): refresh records it, saying why.
  const later = await writtenAgain(host.acme, FIRST_URL);
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
  await writtenAgain(host.acme, SECOND_URL);
  await project.ok(["destroy", "--yes", "--skip-preview"], env);
  expect(live()).toEqual([]);
  expect(await project.subscriptions()).toEqual([]);
}

/** Waits (polling, with a deadline) until the held POST was applied by the service. */
async function lateWriteLanded({ sim }: Pick<AcmeSimulator, "sim">): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!sim.requests().some((r) => r.fault === "late-apply" && r.appliedStatus !== undefined)) {
    if (Date.now() > deadline) throw new Error("the held POST was never applied");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same hook and URL written again outside the stack: what a late write does, a new id. */
async function writtenAgain({ sim }: Pick<AcmeSimulator, "sim">, url: string): Promise<number> {
  const answer = await fetch(`${sim.baseUrl}/webhook_subscriptions`, {
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
