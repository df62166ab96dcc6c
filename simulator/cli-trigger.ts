/**
 * `shipping-api-sim trigger <hook>` and `shipping-api-sim resend <delivery id>`: ask a running simulator
 * (its control endpoints) to send an event or a logged delivery to the subscribed receiver, print every
 * attempt and what the receiver answered, and exit 0 only when it was accepted.
 */
import { parseArgs } from "node:util";
import { integerFlag, UsageError } from "./cli-args";
import { DEFAULT_CLI_PORT, HOOKS, MAX_EVENT_COUNT } from "./constants";
import { formatAttempt } from "./delivery-format";
import type { Emitted } from "./delivery-types";
import { isLoopbackHost } from "./simulator";
import type { Hook } from "./types";

/** Environment variable naming the simulator's base URL. */
export const URL_ENV = "SHIPPING_SIM_URL";
/** Base URL when neither --url nor SHIPPING_SIM_URL is given. */
export const DEFAULT_SIM_URL = `http://127.0.0.1:${DEFAULT_CLI_PORT}`;
/** Longest wait for the simulator's answer, in milliseconds: every attempt and backoff at their maximum fit. */
export const TRIGGER_TIMEOUT_MS = 30 * 60_000;
/** Characters of the receiver's answer shown per attempt. */
const SHOWN_ANSWER_CHARS = 200;

/** Exit status: the receiver accepted every delivery. */
export const EXIT_ACCEPTED = 0;
/** Exit status: not accepted, nothing sent, or the simulator unreachable. */
export const EXIT_NOT_ACCEPTED = 1;
/** Exit status: the simulator refused the event as invalid (as for a bad flag). */
export const EXIT_INVALID_EVENT = 2;

/** A parsed client command: where to send which control request. */
export interface ClientCommand {
  baseUrl: string;
  path: "/__sim/events" | "/__sim/resend";
  body: Record<string, unknown>;
  /** What the command sends ("event" or "resend"), for the printed lines. */
  what: "event" | "resend";
}

/** Wire field names that are event fields, per hook (so derived fields and checks follow them). */
const EVENT_FIELDS: Record<Hook, Record<string, [string, "number" | "string" | "object"]>> = {
  shipment_status_change: {
    shipment_id: ["shipmentId", "number"],
    status: ["status", "number"],
    order_id: ["orderId", "string"],
  },
  shipment_label_created: { shipment_ids: ["shipmentIds", "object"], status: ["status", "string"] },
  order_status_change: { uuid: ["uuid", "string"], status: ["status", "string"] },
};

/** `--set field=value`: the value as JSON when it parses, else as a string. */
function assignment(text: string): [string, unknown] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new UsageError(`--set takes field=value, e.g. --set barcode=3SABC123 (got "${text}")`);
  const raw = text.slice(eq + 1);
  try {
    return [text.slice(0, eq), JSON.parse(raw)];
  } catch {
    return [text.slice(0, eq), raw];
  }
}

function baseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const text = flag ?? env[URL_ENV] ?? DEFAULT_SIM_URL;
  const origin = flag === undefined ? (env[URL_ENV] === undefined ? "default" : URL_ENV) : "--url";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `${origin} "${text}" is not a URL; use the one the simulator printed, e.g. ${DEFAULT_SIM_URL}`,
    );
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${origin} "${text}" must be http:// on a loopback address, e.g. ${DEFAULT_SIM_URL}`,
    );
  }
  return url.origin;
}

function triggerCommand(argv: string[], env: NodeJS.ProcessEnv): ClientCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      shop: { type: "string" },
      set: { type: "string", multiple: true },
      unset: { type: "string", multiple: true },
      count: { type: "string" },
      url: { type: "string" },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`trigger takes one hook: ${HOOKS.join(", ")}`);
  const hook = positionals[0] as Hook;
  if (!HOOKS.includes(hook))
    throw new UsageError(`trigger <hook> must be one of ${HOOKS.join(", ")} (got "${hook}")`);
  const event: Record<string, unknown> = { kind: hook };
  if (values.shop !== undefined) event.shop = values.shop;
  const count = integerFlag("count", values.count, 1, MAX_EVENT_COUNT);
  if (count !== undefined) event.count = count;
  const set: Record<string, unknown> = {};
  for (const [field, value] of (values.set ?? []).map(assignment)) {
    const mapped = EVENT_FIELDS[hook][field];
    if (mapped !== undefined && typeof value === mapped[1] && value !== null) event[mapped[0]] = value;
    else set[field] = value;
  }
  if (Object.keys(set).length > 0) event.set = set;
  if (values.unset !== undefined) event.unset = values.unset;
  return { baseUrl: baseUrl(values.url, env), path: "/__sim/events", body: event, what: "event" };
}

function resendCommand(argv: string[], env: NodeJS.ProcessEnv): ClientCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { url: { type: "string" } },
  });
  if (positionals.length !== 1)
    throw new UsageError("resend takes one delivery id (see GET /__sim/deliveries)");
  const id = positionals[0] as string;
  return { baseUrl: baseUrl(values.url, env), path: "/__sim/resend", body: { id }, what: "resend" };
}

/** Parse `trigger ...` or `resend ...` (argv after the command name); throws UsageError naming the flag. */
export function parseClientCommand(
  command: "trigger" | "resend",
  argv: string[],
  env = process.env,
): ClientCommand {
  try {
    return command === "trigger" ? triggerCommand(argv, env) : resendCommand(argv, env);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** Send the command, print each attempt with `print`, and answer the exit status. */
export async function runClientCommand(
  command: ClientCommand,
  print: (line: string) => void,
): Promise<number> {
  const url = `${command.baseUrl}${command.path}`;
  let status: number;
  let answer: unknown;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(command.body),
      signal: AbortSignal.timeout(TRIGGER_TIMEOUT_MS),
    });
    status = res.status;
    answer = await res.json();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    print(
      `cannot reach the simulator at ${command.baseUrl} (${cause}); start it (shipping-api-sim) or pass --url`,
    );
    return EXIT_NOT_ACCEPTED;
  }
  const body = answer as Partial<Emitted> & { reason?: string; errors?: Array<{ message?: string }> };
  if (status !== 200) {
    print(`not sent: ${body.errors?.[0]?.message ?? `the simulator answered ${status}`}`);
    return status === 422 ? EXIT_INVALID_EVENT : EXIT_NOT_ACCEPTED;
  }
  if (body.delivered !== true) {
    print(`not sent: ${body.reason ?? "the simulator sent nothing"}`);
    return EXIT_NOT_ACCEPTED;
  }
  const first = body.attempts?.[0];
  const events = body.attempts
    ?.filter((a) => a.attempt === 1 && a.send !== "duplicate")
    .reduce((n, a) => n + a.events, 0);
  const what = command.what === "event" ? `${events} ${first?.hook} event(s)` : `delivery ${first?.id}`;
  print(`sent ${what} of shop ${first?.shop} to ${first?.url}`);
  for (const attempt of body.attempts ?? []) {
    print(`  ${formatAttempt(attempt)}`);
    const shown = attempt.response?.replace(/\s+/g, " ").trim().slice(0, SHOWN_ANSWER_CHARS);
    if (shown !== undefined && shown !== "") print(`    answer: ${shown}`);
  }
  print(
    body.accepted === true
      ? "accepted by the receiver"
      : "not accepted: the receiver refused or missed every attempt",
  );
  return body.accepted === true ? EXIT_ACCEPTED : EXIT_NOT_ACCEPTED;
}
