/**
 * How long `trigger` and `resend` wait for the simulator's answer. The simulator answers once every attempt
 * is over, and the switches allow long sends (10 attempts of 60 s each plus backoffs of up to 60 s: 19 min
 * for one delivery; a duplicate doubles it, `--count 100` with one event per delivery makes 100 of them). A
 * fixed wait is either too short for what the switches allow or absurd for the common case, and bounding
 * one emit on the simulator's side would cut sends the switches promise. So the command asks the simulator
 * for its switches first and waits for the worst case they allow for this command, plus a margin; the wait
 * runs out only when the switches change during the send (then the command says so and where to look).
 */
import { MAX_TIMER_MS } from "./constants";
import { backoffMs } from "./events";
import type { Switches } from "./types";

/** Added to the worst case, for the simulator's own work and the answer. */
export const WAIT_MARGIN_MS = 60_000;

/** The switches the worst case depends on. */
export type WaitSwitches = Pick<
  Switches,
  "deliveryAttempts" | "deliveryTimeoutMs" | "deliveryBackoffMs" | "deliveryDuplicates" | "eventsPerDelivery"
>;

/**
 * Longest a send can last under `switches`, in milliseconds (capped at a Node timer's limit): `events`
 * events (in deliveries of at most `eventsPerDelivery`), each delivery sent twice when duplicates are on
 * (`duplicates`: false for a resend), every attempt timing out and every backoff waited.
 */
export function worstCaseMs(switches: WaitSwitches, events: number, duplicates: boolean): number {
  const deliveries = Math.ceil(events / switches.eventsPerDelivery);
  const sends = deliveries * (duplicates && switches.deliveryDuplicates > 0 ? 2 : 1);
  let perSend = switches.deliveryAttempts * switches.deliveryTimeoutMs;
  for (let attempt = 1; attempt < switches.deliveryAttempts; attempt++)
    perSend += backoffMs(switches.deliveryBackoffMs, attempt);
  return Math.min(MAX_TIMER_MS, sends * perSend + WAIT_MARGIN_MS);
}

/** A wait as a person reads it: "200 ms", "90 s", "19 min", "63.3 h". */
export function shownDuration(ms: number): string {
  if (ms < 2_000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 120 * 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
