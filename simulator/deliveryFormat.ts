/** One line per delivery attempt, for a person watching the simulator's output or a `trigger`. */
import type { Delivery } from "./deliveryTypes";

/** The host (and port) of a delivery's URL, or the URL itself when it does not parse. */
function targetHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * `<hook> shop=<shop> id=<delivery id> -> <host> attempt <n>/<max>: <status> <result> (<ms> ms)`, with
 * `[duplicate]` or `[resend]` when the send was one, the error instead of the status when there was no
 * answer, and `; retry in <ms> ms` when another attempt follows.
 */
export function formatAttempt(d: Omit<Delivery, "body" | "headers">): string {
  const send = d.send === "event" ? "" : ` [${d.send}]`;
  const outcome = d.status === undefined ? (d.error ?? d.result) : `${d.status} ${d.result}`;
  const retry = d.retryInMs === undefined ? "" : `; retry in ${d.retryInMs} ms`;
  return `${d.hook} shop=${d.shop} id=${d.id}${send} -> ${targetHost(d.url)} attempt ${d.attempt}/${d.maxAttempts}: ${outcome} (${d.durationMs} ms)${retry}`;
}
