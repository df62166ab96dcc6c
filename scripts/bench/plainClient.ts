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
 * The lower bound: a plain script making the fewest calls the API allows, with undici at the same concurrency.
 * `up`: per shop one listing (the adoption check) and one POST of its three hooks. `destroy`: per shop one
 * GET of its ids (the guard) and one DELETE of them. Returns the wall time in ms.
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
  const tasks = seeds.map((seed) =>
    op === "up"
      ? async () => {
          await call(seed, "GET", "/webhook_subscriptions/");
          const hooks = HOOKS.map((hook) => ({ hook, url: callbackUrl(seed.name, hook) }));
          const body = JSON.stringify({ data: { webhook_subscriptions: hooks } });
          await call(seed, "POST", "/webhook_subscriptions", body);
        }
      : async () => {
          const shopIds = (ids?.get(seed.name) ?? []).join(";");
          await call(seed, "GET", `/webhook_subscriptions/${shopIds}`);
          await call(seed, "DELETE", `/webhook_subscriptions/${shopIds}`);
        },
  );
  await pooled(tasks, concurrency);
  const elapsed = performance.now() - started;
  await pool.close();
  return elapsed;
}
