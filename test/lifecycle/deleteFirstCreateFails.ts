/**
 * A URL change of a resource that asks for `deleteBeforeReplace`, whose create then fails, through the official
 * CLI in a project folder, judged by the live subscriptions and the state. The engine deletes first, as the
 * resource asks, so the hook is unsubscribed until a create succeeds; the state keeps the deleted subscription
 * as pending replacement, which `pulumi refresh` does not read. On a shop that then lists nothing, the next
 * `up` cannot tell a deleted subscription from a key that reaches another shop, and refuses; its message names
 * the way out, which this scenario follows to a subscribed hook.
 *
 * One scenario, each assertion written once, run under both hosts: the TypeScript class (dynamic host,
 * deleteBeforeReplace.cli.test.ts) and the provider plugin (deleteBeforeReplace.plugin.test.ts). Each gives
 * its simulator, its project factory and its program.
 */
import { expect } from "vitest";
import type { AcmeSimulator } from "../support/acmeSimulator";
import type { OfficialProject } from "../support/officialProject";
import { LABELS } from "../support/services";

/** The hook the program declares (one resource, `labels`). */
export const HOOK = LABELS;
const OURS = "https://hooks.example.com/labels";

/** How one host's test file runs the scenario. */
export interface DeleteFirstHost {
  /** The file's simulator (reset before each test). */
  readonly acme: Pick<AcmeSimulator, "sim" | "liveHooks">;
  /** A project folder of `program` (its index.ts) with a stack `dev` of acme's base URL and key (a secret). */
  project(name: string, program: string): Promise<OfficialProject>;
  /** The program: one resource `labels` of {@link HOOK} at `url`, with `deleteBeforeReplace: true`. */
  program(url: string): string;
}

/**
 * The scenario: deleted first, its create failing, the resource's next up refuses on the emptied shop naming
 * `pulumi state delete`; following that subscribes the hook, and a preview then shows no change.
 */
export async function deleteFirstCreateFails(host: DeleteFirstHost): Promise<void> {
  const { acme } = host;
  const project = await host.project("dbr-failed", host.program(OURS));
  await project.ok(["up", "--yes"]);

  project.write({ "index.ts": host.program(`${OURS}-v2`) });
  acme.sim.addFault({ kind: "status", status: 500, method: "POST", count: 20 });
  const failed = await project.pulumi(["up", "--yes", "--skip-preview"]);
  acme.sim.clearFaults();
  expect(failed.status).not.toBe(0);
  expect(acme.liveHooks()).toEqual([]);
  const [pending] = await project.subscriptions();
  expect((pending as { pendingReplacement?: boolean } | undefined)?.pendingReplacement).toBe(true);

  const stuck = await project.pulumi(["up", "--yes", "--skip-preview"]);
  expect(stuck.status).not.toBe(0);
  expect(stuck.stdout).toContain("pulumi state delete <its URN>");
  expect(acme.liveHooks()).toEqual([]);

  await project.ok(["state", "delete", pending?.urn ?? "", "--yes"]);
  await project.ok(["up", "--yes", "--skip-preview"]);
  expect(acme.liveHooks()).toEqual([`${HOOK}=${OURS}-v2`]);
  const [subscribed] = await project.subscriptions();
  expect(subscribed?.id).toBe(String(acme.sim.subscriptions("acme")[0]?.id));
  await project.ok(["preview", "--expect-no-changes"]);
}
