/**
 * The pin's guarantee, searched for a counterexample: a shop pinned with `shipping:shopId` to acme is deployed,
 * then its key becomes acme's second key or globex's, and a generated sequence of the engine's calls runs with
 * it (adds, URL changes, `--replace`-style replacements with no diff, refreshes, deletes), under generated
 * switches (shop_id listed or omitted, keep-id or new-id overwrite) and a generated set of globex's own
 * subscriptions. With globex's key nothing changes in either shop; with acme's second key the pin refuses
 * nothing; a pin the service cannot check keeps no write anywhere. The provider runtime is called as the
 * engine would, one deployment per phase, against the simulator over loopback.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOOKS, type Hook } from "../../provider/inputs/hooks";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { outOfBand } from "../support/outOfBand";
import { freshProvider, type ProviderRuntime } from "../support/provider";
import { ACME_KEY, ACME_SECOND_KEY, ACME_SHOP_ID, GLOBEX_KEY } from "../support/shops";

const RUNS = 100;
const TIMEOUT_MS = 240_000;

const acme = useAcmeSimulator();

/** A resource as state records it after a create. */
interface Recorded {
  readonly id: string;
  readonly outs: Record<string, unknown>;
}

type Op =
  | { readonly kind: "add"; readonly hook: Hook; readonly url: number }
  | { readonly kind: "setUrl"; readonly which: number; readonly url: number }
  | { readonly kind: "replace"; readonly which: number }
  | { readonly kind: "refresh"; readonly which: number }
  | { readonly kind: "remove"; readonly which: number };

const hook = fc.constantFrom(...HOOKS);
const url = fc.nat(2);
const which = fc.nat(5);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), hook, url }),
  fc.record({ kind: fc.constant("setUrl" as const), which, url }),
  fc.record({ kind: fc.constant("replace" as const), which }),
  fc.record({ kind: fc.constant("refresh" as const), which }),
  fc.record({ kind: fc.constant("remove" as const), which }),
);

const callback = (n: number) => `https://hooks.example.com/pinned/${n}`;

function snapshot() {
  return { acme: acme.sim.subscriptions("acme"), globex: acme.sim.subscriptions("globex") };
}

/** A new deployment (a new provider process) with `key` and the pin. */
function deployment(key: string): Promise<ProviderRuntime> {
  return freshProvider({
    "shipping:baseUrl": acme.sim.baseUrl,
    "shipping:apiKey": key,
    "shipping:shopId": ACME_SHOP_ID,
  });
}

/** check then create, as the engine does for a new resource; the refusal's message, if any. */
async function create(runtime: ProviderRuntime, inputs: Record<string, unknown>): Promise<Recorded | string> {
  const checked = await runtime.check({}, inputs);
  if (checked.failures.length > 0) return checked.failures.map((f) => f.reason).join("; ");
  try {
    const { id, outs } = await runtime.create(checked.inputs);
    return { id, outs: { ...outs } };
  } catch (error) {
    return String(error);
  }
}

/** One engine step on the recorded resources; answers the refusals it met. */
async function step(runtime: ProviderRuntime, state: Recorded[], next: Op): Promise<string[]> {
  const attempt = async (fn: () => Promise<unknown>) =>
    fn().then(
      () => undefined,
      (error: unknown) => String(error),
    );
  if (next.kind === "add") {
    if (state.some((r) => r.outs.hook === next.hook)) return [];
    const made = await create(runtime, { hook: next.hook, url: callback(next.url) });
    if (typeof made === "string") return [made];
    state.push(made);
    return [];
  }
  const index = next.which % Math.max(state.length, 1);
  const old = state[index];
  if (old === undefined) return [];
  const inputs = { hook: old.outs.hook, url: old.outs.url };
  switch (next.kind) {
    case "refresh":
      return [await attempt(() => runtime.read(old.id, old.outs))].filter((e) => e !== undefined);
    case "remove": {
      const refused = await attempt(() => runtime.deleteSubscription(old.id, old.outs));
      if (refused === undefined) state.splice(index, 1);
      return refused === undefined ? [] : [refused];
    }
    default: {
      // A URL change (check, diff, create, then delete of the old) or `up --replace` (no diff).
      const news = next.kind === "setUrl" ? { ...inputs, url: callback(next.url) } : inputs;
      if (next.kind === "setUrl") {
        const refused = await attempt(() => runtime.diff(old.id, old.outs, news));
        if (refused !== undefined) return [refused];
      }
      const made = await create(runtime, news);
      if (typeof made === "string") return [made];
      state[index] = made;
      const refused = await attempt(() => runtime.deleteSubscription(old.id, old.outs));
      return refused === undefined ? [] : [refused];
    }
  }
}

describe("a pinned shop after its key changed (generated sequences of the engine's calls)", () => {
  it(
    `globex's key changes nothing in either shop; acme's second key is never refused for the pin (${RUNS} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("listed" as const, "omitted" as const),
          fc.constantFrom("keep-id" as const, "new-id" as const),
          fc.subarray([...HOOKS]),
          fc.uniqueArray(hook, { minLength: 1, maxLength: 3 }),
          fc.constantFrom(ACME_SECOND_KEY, GLOBEX_KEY),
          fc.array(op, { minLength: 1, maxLength: 6 }),
          async (shopFields, overwrite, globexHooks, deployed, key, ops) => {
            await acme.sim.reset();
            acme.sim.setSwitches({ shopFields, overwrite });
            if (globexHooks.length > 0)
              await outOfBand(acme.sim.baseUrl, GLOBEX_KEY, (api) =>
                api.create(globexHooks.map((h) => ({ hook: h, url: `https://globex.example.com/${h}` }))),
              );
            const globexBefore = acme.sim.subscriptions("globex");

            // Deployed with acme's key and the pin, one resource at a time.
            const first = await deployment(ACME_KEY);
            const state: Recorded[] = [];
            for (const h of deployed) {
              const made = await create(first, { hook: h, url: callback(0) });
              if (typeof made !== "string") state.push(made);
              // The service sends no shop_id: the pin cannot be checked, and the write it made to find out is undone.
              else expect(made, `deploying ${h}`).toMatch(/sends no shop_id/);
            }
            if (shopFields === "omitted") {
              expect(state).toEqual([]);
              expect(snapshot()).toEqual({ acme: [], globex: globexBefore });
            } else expect(state).toHaveLength(deployed.length);

            const before = snapshot();
            const later = await deployment(key);
            const refusals: string[] = [];
            for (const next of ops) refusals.push(...(await step(later, state, next)));
            const after = snapshot();
            if (key === GLOBEX_KEY || shopFields === "omitted") {
              expect(after, "both shops").toEqual(before);
            } else {
              expect(refusals.filter((r) => r.includes("pins shop"))).toEqual([]);
              expect(after.globex, "globex").toEqual(before.globex);
            }
          },
        ),
        { numRuns: RUNS, seed: 1323 },
      );
    },
    TIMEOUT_MS,
  );
});
