import { HOOKS } from "../../provider";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type Declared, fleetProgram, shopSeeds, shopsConfig } from "./fleet";
import { markdownTable } from "./table";
import { benchStack, timed } from "./workspace";

/** One operation's API calls against its minimum. */
export interface CallCount {
  readonly operation: string;
  readonly calls: number;
  readonly detail: string;
  readonly minimum: string;
  readonly budget: number;
}

function countSince(sim: RunningSimulator): { calls: number; detail: string } {
  const log = sim.requests();
  const byMethod = new Map<string, number>();
  for (const entry of log) byMethod.set(entry.method, (byMethod.get(entry.method) ?? 0) + 1);
  return { calls: log.length, detail: [...byMethod].map(([m, n]) => `${n} ${m}`).join(", ") || "none" };
}

/** Item 1: API calls per operation for one shop's three hooks, counted by the simulator. */
export async function measureApiCalls(): Promise<{ rows: CallCount[]; markdown: string }> {
  const seeds = shopSeeds(1);
  const shop = seeds[0]?.name ?? "";
  const sim = await startSimulator({ shops: seeds });
  let declared: Declared = () => 1;
  const bench = await benchStack(
    "calls",
    fleetProgram(
      () => seeds,
      (s, h) => declared(s, h),
    ),
    {
      "shipping:shops": { value: shopsConfig(seeds, sim.baseUrl), secret: true },
    },
  );
  const stack = bench.stack;
  const rows: CallCount[] = [];
  const measure = async (operation: string, minimum: string, budget: number, run: () => Promise<unknown>) => {
    sim.clearRequests();
    await timed(run, operation);
    rows.push({ operation, minimum, budget, ...countSince(sim) });
  };
  try {
    await measure(
      "create 3 hooks (1 shop)",
      "1 listing (adoption check) + 1 POST of the 3; at most 1 batched read-back",
      3,
      () => stack.up(),
    );
    // README "How each operation maps to the API": a diffed resource with a recorded shop costs one listing of
    // that shop (is the key still the same shop?), nothing else.
    const identityCheck = "<= 1 listing per shop (identity check of the recorded shop)";
    await measure("settled preview", identityCheck, 1, () => stack.preview());
    await measure("settled up", identityCheck, 1, () => stack.up());
    await measure("refresh 3 resources", "<= 3; stretch 1 per shop", 3, () => stack.refresh());
    declared = (_s, h) => (h === HOOKS[2] ? 2 : 1);
    await measure("URL change of 1 hook", "<= 2", 2, () => stack.up());
    declared = (_s, h) => (h === HOOKS[2] ? undefined : 1);
    await measure("delete 1 resource", "<= 2", 2, () => stack.up());
    declared = () => 1;
    await stack.up();
    await measure("destroy a shop's 3 hooks", "<= 6; stretch 2 (batched)", 6, () => stack.destroy());
  } finally {
    await sim.close();
    bench.remove();
  }
  if (sim.subscriptions(shop).length !== 0) throw new Error("destroy left subscriptions behind");
  const markdown = markdownTable(
    ["operation", "API calls", "by method", "minimum / goal", "verdict"],
    rows.map((r) => [r.operation, r.calls, r.detail, r.minimum, r.calls <= r.budget ? "ok" : "EXCESS"]),
  );
  return { rows, markdown };
}
