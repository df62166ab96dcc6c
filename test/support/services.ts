/**
 * Simulated services for the integration tests of the ownership rule: acme's stack on the file's simulator
 * (`useAcmeSimulator`, test/support/acmeSimulator.ts), the stack configuration that reaches one of its shops,
 * and what it was asked to write.
 */
import { expect } from "vitest";
import type { RunningSimulator, Switches } from "../../simulator";
import type { AcmeSimulator } from "./acmeSimulator";
import { type Config, type Declaration, Stack } from "./engineOrder";
import { ACME_KEY } from "./shops";

export const ORDERS = "order_status_change";
export const SHIPMENTS = "shipment_status_change";
export const LABELS = "shipment_label_created";

export { ACME_SHOP_ID, GLOBEX_SHOP_ID } from "./shops";

/** A program of the three hooks, one resource each, at hooks.example.com. */
export const THREE_HOOKS: readonly Declaration[] = [
  { name: "shipments", hook: SHIPMENTS, url: "https://hooks.example.com/s" },
  { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
  { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
];

/**
 * The file's simulator with `switches` for this test, and acme's stack on it with `declared` deployed by an
 * `up` that succeeded.
 */
export async function deployed(
  acme: AcmeSimulator,
  declared: readonly Declaration[],
  switches: Partial<Switches> = {},
) {
  const sim = acme.withSwitches(switches);
  const stack = new Stack(configOf(sim));
  expect((await stack.up(declared)).ok).toBe(true);
  return { sim, stack };
}

/** The stack configuration of the default shop at `sim` with `key` (acme's by default). */
export function configOf(sim: RunningSimulator, key = ACME_KEY, more: Config = {}): Config {
  return { "shipping:apiKey": key, "shipping:baseUrl": sim.baseUrl, ...more };
}

/** acme's stack on `sim` (its key the default shop's) with `entries` as `shipping:shops`. */
export function stackWithShops(sim: RunningSimulator, entries: Parameters<typeof shops>[0]): Stack {
  return new Stack(configOf(sim, ACME_KEY, { "shipping:shops": shops(entries) }));
}

/** `shipping:shops` as stack configuration holds it. */
export function shops(
  entries: Record<string, { apiKey: string; baseUrl?: string; shopId?: string | number }>,
) {
  return JSON.stringify(entries);
}

/** The writes the simulator was sent, as `METHOD status` lines. */
export function writes(sim: RunningSimulator): string[] {
  return sim
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.status}`);
}

/** The hooks `shop` has subscriptions of, sorted. */
export function hooksIn(sim: RunningSimulator, shop: string): string[] {
  return sim
    .subscriptions(shop)
    .map((s) => s.hook)
    .sort();
}

/** Both shops' subscriptions. */
export function shopsOf(sim: RunningSimulator) {
  return { acme: sim.subscriptions("acme"), globex: sim.subscriptions("globex") };
}

/** `shipping:retry` with short waits: the tests of lost answers retry as production does, only sooner. */
export const QUICK_RETRY: Config = {
  "shipping:retry": JSON.stringify({ baseDelayMs: 10, maxDelayMs: 20 }),
};
