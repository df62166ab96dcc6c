/** Shared helpers of the review 13b reproductions: a simulator of acme and globex, and a stack per scenario. */
import { afterEach } from "vitest";
import { type RunningSimulator, type Switches, startSimulator } from "../../../simulator";
import { acmeStackConfig, TEST_SHOPS } from "../../support/shops";
import {
  type Declaration,
  declarationsProgram,
  engine,
  sandbox,
  stackIn,
  subscriptionResources,
} from "../support/engine";

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

/** A simulator with shops acme (shop_id 1, two read-write keys) and globex (shop_id 2). */
export async function simulator(switches: Partial<Switches> = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ shops: TEST_SHOPS, switches });
  simulators.push(sim);
  return sim;
}

/** A stack (file backend, real CLI) whose declarations the test edits between runs. */
export async function scenario(sim: RunningSimulator, declared: Declaration[], name: string) {
  const box = sandbox(name);
  const state = { declared };
  const stack = await stackIn(
    box,
    declarationsProgram(() => state.declared),
    acmeStackConfig(sim.baseUrl),
  );
  return { box, stack, state };
}

/** What state records per subscription resource: name, id, hook, url (secrets unwrapped). */
export async function recorded(stack: Awaited<ReturnType<typeof scenario>>["stack"]) {
  return subscriptionResources(await stack.exportStack()).map((r) => {
    const url = r.outputs.url as string | { plaintext: string };
    return {
      name: r.urn.split("::").pop(),
      id: Number(r.id),
      hook: r.outputs.hook,
      url: typeof url === "string" ? url : JSON.parse(url.plaintext),
      shopId: r.outputs.shopId,
    };
  });
}

/** Runs an engine operation; answers "succeeded" or the error's first 600 characters. */
export async function outcome(operation: Promise<unknown>, what: string): Promise<string> {
  return engine(operation, what).then(
    () => "succeeded",
    (error: unknown) => `failed: ${String(error).slice(0, 600)}`,
  );
}

export const ORDERS = "order_status_change";
export const SHIPMENTS = "shipment_status_change";
