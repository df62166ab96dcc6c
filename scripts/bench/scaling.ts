import { HOOKS } from "../../provider";
import { PROVIDER_MODULE } from "../../provider/dynamicProvider";
import { startSimulator } from "../../simulator";
import { fleetProgram, shopSeeds, shopsConfig } from "./fleet";
import { plainRun } from "./plainClient";
import { median } from "./table";
import { benchStack, timed } from "./workspace";

/** Added latency of every API call, as a distant service would have. */
export const ADDED_LATENCY_MS = 50;
/** Pulumi's default --parallel, used by the plain script too. */
export const PARALLEL = 8;

/** Medians of one fleet size. */
export interface ScalingResult {
  readonly shops: number;
  readonly resources: number;
  readonly upMs: number;
  readonly plainUpMs: number;
  readonly destroyMs: number;
  readonly plainDestroyMs: number;
  readonly upCalls: number;
  readonly destroyCalls: number;
  readonly providerBytes: number;
}

/**
 * Time the dynamic-provider host takes to compile `__provider` into the provider (once per process; the
 * runtime module it requires is loaded already, its cost is in the cold start). Nothing is serialized: the
 * module text is a constant.
 */
export async function serializationMs(): Promise<number> {
  const requireFromString = require("require-from-string") as (code: string) => { handler(): unknown };
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    requireFromString(PROVIDER_MODULE).handler();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** Item 2 and 3: `up` and `destroy` of S shops x 3 hooks, against a plain script; medians of `runs`. */
export async function measureScaling(shops: number, runs: number): Promise<ScalingResult> {
  const seeds = shopSeeds(shops);
  const sim = await startSimulator({ shops: seeds, requestLogLimit: 100_000 });
  const samples: Array<Omit<ScalingResult, "shops" | "resources">> = [];
  try {
    for (let run = 0; run < runs; run++) {
      sim.reset();
      sim.addFault({ kind: "latency", ms: ADDED_LATENCY_MS });
      const stack = await benchStack(
        `s${shops}`,
        fleetProgram(
          () => seeds,
          () => 1,
        ),
        {
          "shipping:shops": { value: shopsConfig(seeds, sim.baseUrl), secret: true },
        },
      );
      const upMs = await timed(() => stack.up({ parallel: PARALLEL }), `up S=${shops}`);
      const upCalls = sim.requests().length;
      const exported = await stack.exportStack();
      const resources = (
        (exported.deployment as { resources?: Array<{ type: string; outputs?: { __provider?: string } }> })
          .resources ?? []
      ).filter((r) => r.type.endsWith("WebhookSubscription"));
      const providerBytes = median(resources.map((r) => Buffer.byteLength(r.outputs?.__provider ?? "")));
      if (resources.length !== shops * HOOKS.length)
        throw new Error(`expected ${shops * HOOKS.length} resources, got ${resources.length}`);
      sim.clearRequests();
      const destroyMs = await timed(() => stack.destroy({ parallel: PARALLEL }), `destroy S=${shops}`);
      const destroyCalls = sim.requests().length;

      sim.reset();
      sim.addFault({ kind: "latency", ms: ADDED_LATENCY_MS });
      const plainUpMs = await plainRun(sim.baseUrl, seeds, "up", PARALLEL);
      const ids = new Map(seeds.map((s) => [s.name, sim.subscriptions(s.name).map((x) => x.id)]));
      const plainDestroyMs = await plainRun(sim.baseUrl, seeds, "destroy", PARALLEL, ids);
      samples.push({ upMs, plainUpMs, destroyMs, plainDestroyMs, upCalls, destroyCalls, providerBytes });
    }
  } finally {
    await sim.close();
  }
  const med = (key: keyof (typeof samples)[number]) => median(samples.map((s) => s[key]));
  return {
    shops,
    resources: shops * HOOKS.length,
    upMs: med("upMs"),
    plainUpMs: med("plainUpMs"),
    destroyMs: med("destroyMs"),
    plainDestroyMs: med("plainDestroyMs"),
    upCalls: med("upCalls"),
    destroyCalls: med("destroyCalls"),
    providerBytes: med("providerBytes"),
  };
}
