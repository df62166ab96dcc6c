import { Pool } from "undici";
import { HOOKS } from "../../provider";
import type { ShopSeed } from "../../simulator";
import { callbackUrl } from "./fleet";

/** Runs `tasks` with at most `concurrency` at a time (Pulumi's --parallel). */
async function pooled(tasks: Array<() => Promise<void>>, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++];
      await task?.();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function auth(seed: ShopSeed): string {
  return `bearer ${Buffer.from(seed.keys.readWrite[0] ?? "").toString("base64")}`;
}

/**
 * The baseline: a plain script making the HTTP calls the provider makes for `up` (per shop one listing and
 * one POST per hook) and for `destroy` (per shop one GET and one DELETE of its ids), with undici at the
 * same concurrency. Returns the wall time in ms.
 */
export async function plainRun(
  baseUrl: string,
  seeds: readonly ShopSeed[],
  op: "up" | "destroy",
  concurrency: number,
  ids?: Map<string, number[]>,
): Promise<number> {
  const pool = new Pool(baseUrl, { connections: concurrency });
  const headers = (seed: ShopSeed) => ({
    authorization: auth(seed),
    "user-agent": "CustomApiCall/2",
    accept: "application/json",
    "content-type": "application/json; charset=utf-8",
  });
  const call = async (seed: ShopSeed, method: "GET" | "POST" | "DELETE", path: string, body?: string) => {
    const response = await pool.request({
      method,
      path,
      headers: headers(seed),
      ...(body !== undefined ? { body } : {}),
    });
    await response.body.text();
  };
  const started = performance.now();
  if (op === "up") {
    await pooled(
      seeds.map((seed) => () => call(seed, "GET", "/webhook_subscriptions/")),
      concurrency,
    );
    const posts = seeds.flatMap((seed) =>
      HOOKS.map(
        (hook) => () =>
          call(
            seed,
            "POST",
            "/webhook_subscriptions",
            JSON.stringify({
              data: { webhook_subscriptions: [{ hook, url: callbackUrl(seed.name, hook) }] },
            }),
          ),
      ),
    );
    await pooled(posts, concurrency);
  } else {
    const tasks = seeds.map((seed) => async () => {
      const shopIds = (ids?.get(seed.name) ?? []).join(";");
      await call(seed, "GET", `/webhook_subscriptions/${shopIds}`);
      await call(seed, "DELETE", `/webhook_subscriptions/${shopIds}`);
    });
    await pooled(tasks, concurrency);
  }
  const elapsed = performance.now() - started;
  await pool.close();
  return elapsed;
}
