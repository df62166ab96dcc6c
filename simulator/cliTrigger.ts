/**
 * `shipping-api-sim trigger <hook>` and `shipping-api-sim resend <delivery id>`: ask a running simulator
 * (its control endpoints) to send an event or a logged delivery to the subscribed receiver, print every
 * attempt and what the receiver answered, and exit 0 only when it was accepted.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { Agent, fetch } from "undici";
import { HOOKS, type Hook } from "../contract/hooks";
import { choice, integerFlag, negativeValuesJoined, UsageError, usageErrorsOf } from "./cliArgs";
import { overFixture, readFixture } from "./cliFixture";
import { CLI_RETRY_SETTINGS, parseRetryAfter, retryDelayMs, shouldRetry } from "./cliRetry";
import { setAssignments } from "./cliSet";
import { shownDuration, type WaitSwitches, worstCaseMs } from "./cliWait";
import { CONTROL_PREFIX, DEFAULT_CLI_PORT, MAX_EVENT_COUNT } from "./constants";
import { formatAttempt } from "./deliveryFormat";
import { DELIVERY_ORDERS, MAX_EVENT_DELAY_MS } from "./deliveryOrder";
import type { EmittedSummary } from "./deliveryTypes";
import { MAX_ORDER_SEED } from "./eventSchema";

/** Environment variable naming the simulator's base URL. */
export const URL_ENV = "SHIPPING_SIM_URL";
/** Base URL when neither --url nor SHIPPING_SIM_URL is given. */
export const DEFAULT_SIM_URL = `http://127.0.0.1:${DEFAULT_CLI_PORT}`;
/** Longest wait for the simulator's switches (the first call, which also tells whether it is there). */
const SWITCHES_TIMEOUT_MS = 10_000;
/** Characters of the receiver's answer shown per attempt. */
const SHOWN_ANSWER_CHARS = 200;

/** Exit status: the receiver accepted every delivery. */
export const EXIT_ACCEPTED = 0;
/** Exit status: not accepted, nothing sent, or the simulator unreachable. */
export const EXIT_NOT_ACCEPTED = 1;
/** Exit status: the simulator refused the event as invalid (as for a bad flag). */
export const EXIT_INVALID_EVENT = 2;

/** A parsed client command: where to send which control request. */
interface ClientCommand {
  baseUrl: string;
  path: `${typeof CONTROL_PREFIX}${"events" | "resend"}`;
  body: Record<string, unknown>;
  /** What the command sends ("event" or "resend"), for the printed lines. */
  what: "event" | "resend";
  /** Events sent (the event's count; 1 for a resend), for the wait. */
  events: number;
  /** The `--set name=value` items given, to name the flag when the simulator refuses one of them. */
  setFlags?: string[];
  /** Longest the simulator holds the event before its first delivery (`--delay-ms`), for the wait. */
  delayMs?: number;
}

/** The simulator's origin from `--url`, else SHIPPING_SIM_URL, else DEFAULT_SIM_URL; UsageError when unusable. */
export function baseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
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
  // Any host: a simulator reached by another name (`http://sim:4010` in a CI job) answers when started with
  // --allow-host for it, and refuses (403, naming --allow-host) otherwise.
  if (url.protocol !== "http:" || url.username !== "" || url.password !== "") {
    throw new UsageError(
      `${origin} "${text}" must be an http:// URL without user name or password, e.g. ${DEFAULT_SIM_URL} or http://sim:4010`,
    );
  }
  return url.origin;
}

const TRIGGER_OPTIONS = {
  shop: { type: "string" },
  set: { type: "string", multiple: true },
  unset: { type: "string", multiple: true },
  count: { type: "string" },
  url: { type: "string" },
  "sender-key": { type: "string" },
  fixture: { type: "string" },
  "delay-ms": { type: "string" },
  order: { type: "string" },
  "order-seed": { type: "string" },
} as const;

function triggerCommand(argv: string[], env: NodeJS.ProcessEnv): ClientCommand {
  const { values, positionals } = parseArgs({
    args: negativeValuesJoined(argv, TRIGGER_OPTIONS),
    allowPositionals: true,
    strict: true,
    options: TRIGGER_OPTIONS,
  });
  const fixture = values.fixture === undefined ? undefined : readFixture(values.fixture);
  if (positionals.length > 1 || (positionals.length === 0 && fixture === undefined))
    throw new UsageError(`trigger takes one hook: ${HOOKS.join(", ")} (or --fixture <file>)`);
  const hook = positionals[0] as Hook | undefined;
  if (hook !== undefined && !HOOKS.includes(hook))
    throw new UsageError(`trigger <hook> must be one of ${HOOKS.join(", ")} (got "${hook}")`);
  const event: Record<string, unknown> = hook === undefined ? {} : { kind: hook };
  if (values.shop !== undefined) event.shop = values.shop;
  const count = integerFlag("count", values.count, 1, MAX_EVENT_COUNT);
  if (count !== undefined) event.count = count;
  // Every field goes to `set` as an own property (`__proto__` included, for the simulator to refuse); the
  // simulator checks the event's own fields there by the event's rules and sets the event with them.
  const set = setAssignments(values.set, "field=value, e.g. --set barcode=3SABC123");
  if (Object.keys(set).length > 0) event.set = set;
  if (values.unset !== undefined) event.unset = values.unset;
  if (values["sender-key"] !== undefined) event.senderKey = values["sender-key"];
  const delayMs = integerFlag("delay-ms", values["delay-ms"], 0, MAX_EVENT_DELAY_MS);
  if (delayMs !== undefined) event.delayMs = delayMs;
  const order = choice("order", values.order, DELIVERY_ORDERS);
  if (order !== undefined) event.order = order;
  const orderSeed = integerFlag("order-seed", values["order-seed"], 0, MAX_ORDER_SEED);
  if (orderSeed !== undefined) event.orderSeed = orderSeed;
  const body = fixture === undefined ? event : overFixture(fixture, event);
  return {
    baseUrl: baseUrl(values.url, env),
    path: `${CONTROL_PREFIX}events`,
    body,
    what: "event",
    events: typeof body.count === "number" ? Math.min(MAX_EVENT_COUNT, Math.max(1, body.count)) : 1,
    setFlags: values.set ?? [],
    delayMs: typeof body.delayMs === "number" ? Math.min(MAX_EVENT_DELAY_MS, Math.max(0, body.delayMs)) : 0,
  };
}

function resendCommand(argv: string[], env: NodeJS.ProcessEnv): ClientCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { url: { type: "string" } },
  });
  if (positionals.length !== 1)
    throw new UsageError(`resend takes one delivery id (see GET ${CONTROL_PREFIX}deliveries)`);
  const id = positionals[0] as string;
  return {
    baseUrl: baseUrl(values.url, env),
    path: `${CONTROL_PREFIX}resend`,
    body: { id },
    what: "resend",
    events: 1,
  };
}

/** Parse `trigger ...` or `resend ...` (argv after the command name); throws UsageError naming the flag. */
export function parseClientCommand(
  command: "trigger" | "resend",
  argv: string[],
  env = process.env,
): ClientCommand {
  return usageErrorsOf(() => (command === "trigger" ? triggerCommand(argv, env) : resendCommand(argv, env)));
}

/** The cause of a failed fetch, as a person reads it. */
const causeOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

/** No headers or body timeout of their own: the wait is the command's (cliWait.ts). */
const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** An error body's first message, when the answer is one. */
const firstMessage = (body: unknown): string | undefined =>
  (body as { errors?: Array<{ message?: string }> } | undefined)?.errors?.[0]?.message;

/**
 * POST the command, asking again after a 429 (the simulator is busy with other events: nothing was sent) as
 * `shouldRetry` allows, each attempt waiting at most `waitMs`; answers the last status and body.
 */
async function postCommand(
  command: ClientCommand,
  waitMs: number,
  print: (line: string) => void,
): Promise<{ status: number; answer: unknown }> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await fetch(`${command.baseUrl}${command.path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(command.body),
      signal: AbortSignal.timeout(waitMs),
      dispatcher: patient,
    });
    const seen = {
      attempt,
      status: res.status,
      retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
    };
    const answer: unknown = await res.json();
    if (!shouldRetry(seen)) return { status: res.status, answer };
    const delay = retryDelayMs(seen);
    const why = firstMessage(answer) ?? "the simulator answered 429";
    print(
      `busy: ${why}; asking again in ${shownDuration(delay)} (retry ${attempt} of ${CLI_RETRY_SETTINGS.maxRetries})`,
    );
    await sleep(delay);
  }
}

/**
 * Send the command, print each attempt with `print`, and answer the exit status. `waitMs` replaces the
 * wait computed from the simulator's switches (for tests).
 */
export async function runClientCommand(
  command: ClientCommand,
  print: (line: string) => void,
  waitMs?: number,
): Promise<number> {
  const unreachable = (error: unknown): number => {
    print(
      `cannot reach the simulator at ${command.baseUrl} (${causeOf(error)}); start it (shipping-api-sim) or pass --url`,
    );
    return EXIT_NOT_ACCEPTED;
  };
  let wait: number;
  try {
    const res = await fetch(`${command.baseUrl}${CONTROL_PREFIX}switches`, {
      signal: AbortSignal.timeout(SWITCHES_TIMEOUT_MS),
    });
    const switches = (await res.json()) as WaitSwitches;
    wait = waitMs ?? worstCaseMs(switches, command.events, command.what === "event") + (command.delayMs ?? 0);
  } catch (error) {
    return unreachable(error);
  }
  let status: number;
  let answer: unknown;
  try {
    ({ status, answer } = await postCommand(command, wait, print));
  } catch (error) {
    if ((error as Error).name !== "TimeoutError") return unreachable(error);
    print(
      `the simulator is still delivering after ${shownDuration(wait)} (the longest its switches allowed when this began; were they changed?); stopped waiting: follow the attempts with GET ${command.baseUrl}${CONTROL_PREFIX}deliveries`,
    );
    return EXIT_NOT_ACCEPTED;
  }
  const body = answer as Partial<EmittedSummary> & { reason?: string; errors?: Array<{ message?: string }> };
  if (status !== 200) {
    const message = body.errors?.[0]?.message ?? `the simulator answered ${status}`;
    print(`not sent: ${message}`);
    const flag = command.setFlags?.find((item) =>
      message.includes(`set.${item.slice(0, item.indexOf("="))}:`),
    );
    if (flag !== undefined) print(`  from the flag --set ${flag}: change or drop it`);
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
