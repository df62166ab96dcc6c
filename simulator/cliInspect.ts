/**
 * `shipping-api-sim deliveries` and `shipping-api-sim switches`: read a running simulator's delivery log with
 * filters (hook, shop, result or status, since), one line per attempt, instead of raw JSON; and read or change
 * its switches from the command line instead of `curl -XPATCH /__sim/switches`.
 */
import { parseArgs } from "node:util";
import { fetch } from "undici";
import { HOOKS, isHook } from "../contract/hooks";
import { UsageError, usageErrorsOf } from "./cliArgs";
import { setAssignments } from "./cliSet";
import { baseUrl, EXIT_ACCEPTED, EXIT_INVALID_EVENT, EXIT_NOT_ACCEPTED } from "./cliTrigger";
import { CONTROL_PREFIX } from "./constants";
import { formatAttempt } from "./deliveryFormat";
import type { AttemptResult, Delivery } from "./deliveryTypes";

/** Longest wait for the simulator's answer, in milliseconds. */
const INSPECT_TIMEOUT_MS = 30_000;
const RESULTS: readonly AttemptResult[] = ["accepted", "refused", "timeout", "unreachable"];
/** Units of `--since 30s`, in milliseconds. */
const SINCE_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000 };

/** Which attempts `deliveries` prints; every field absent = any. */
export interface DeliveryFilter {
  hook?: string;
  shop?: string;
  /** An attempt's result (`refused`), or its HTTP status (`503`). */
  result?: AttemptResult | number;
  /** Attempts at or after this time, in ms since the epoch. */
  sinceMs?: number;
}

/** Whether an attempt passes the filter. */
export function deliveryMatches(
  d: Pick<Delivery, "hook" | "shop" | "result" | "status" | "at">,
  f: DeliveryFilter,
): boolean {
  if (f.hook !== undefined && d.hook !== f.hook) return false;
  if (f.shop !== undefined && d.shop !== f.shop) return false;
  if (typeof f.result === "number" && d.status !== f.result) return false;
  if (typeof f.result === "string" && d.result !== f.result) return false;
  return f.sinceMs === undefined || Date.parse(d.at) >= f.sinceMs;
}

/** `--since`: a duration back from `now` (`30s`, `10m`, `2h`) or a date (`2026-11-27T14:00:00Z`), in epoch ms. */
export function parseSince(text: string, now: number = Date.now()): number {
  const duration = /^(\d+)(s|m|h)$/.exec(text);
  if (duration !== null) return now - Number(duration[1]) * (SINCE_UNITS[duration[2] ?? "s"] ?? 1_000);
  const date = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date))
    throw new UsageError(
      `--since takes a duration (30s, 10m, 2h) or a date (2026-11-27T14:00:00Z), got "${text}"`,
    );
  return date;
}

/** A parsed `deliveries` or `switches` command. */
type InspectCommand =
  | { kind: "deliveries"; baseUrl: string; filter: DeliveryFilter }
  | { kind: "switches"; baseUrl: string; patch: Record<string, unknown> };

function deliveriesCommand(argv: string[], env: NodeJS.ProcessEnv): InspectCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      hook: { type: "string" },
      shop: { type: "string" },
      status: { type: "string" },
      since: { type: "string" },
      url: { type: "string" },
    },
  });
  const filter: DeliveryFilter = {};
  if (values.hook !== undefined) {
    if (!isHook(values.hook))
      throw new UsageError(`--hook must be one of ${HOOKS.join(", ")} (got "${values.hook}")`);
    filter.hook = values.hook;
  }
  if (values.shop !== undefined) filter.shop = values.shop;
  if (values.status !== undefined) {
    const status = values.status;
    if (/^[1-5]\d\d$/.test(status)) filter.result = Number(status);
    else if ((RESULTS as readonly string[]).includes(status)) filter.result = status as AttemptResult;
    else
      throw new UsageError(
        `--status takes ${RESULTS.join(", ")} or an HTTP status such as 503 (got "${status}")`,
      );
  }
  if (values.since !== undefined) filter.sinceMs = parseSince(values.since);
  return { kind: "deliveries", baseUrl: baseUrl(values.url, env), filter };
}

function switchesCommand(argv: string[], env: NodeJS.ProcessEnv): InspectCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { set: { type: "string", multiple: true }, url: { type: "string" } },
  });
  const patch = setAssignments(values.set, "name=value, e.g. --set deliveryAttempts=5");
  return { kind: "switches", baseUrl: baseUrl(values.url, env), patch };
}

/** Parse `deliveries ...` or `switches ...` (argv after the command name); throws UsageError naming the flag. */
export function parseInspectCommand(
  name: "deliveries" | "switches",
  argv: string[],
  env = process.env,
): InspectCommand {
  return usageErrorsOf(() =>
    name === "deliveries" ? deliveriesCommand(argv, env) : switchesCommand(argv, env),
  );
}

/**
 * Run the command and print with `print`: the matching attempts, one line each, then how many; or the
 * switches as JSON (after the change, with `--set`). Answers the exit status: 0, 1 when the simulator is
 * unreachable, 2 when it refuses the change (naming the switch).
 */
export async function runInspectCommand(
  command: InspectCommand,
  print: (line: string) => void,
): Promise<number> {
  const patching = command.kind === "switches" && Object.keys(command.patch).length > 0;
  const path = `${CONTROL_PREFIX}${command.kind}`;
  let status: number;
  let body: unknown;
  try {
    const res = await fetch(`${command.baseUrl}${path}`, {
      method: patching ? "PATCH" : "GET",
      signal: AbortSignal.timeout(INSPECT_TIMEOUT_MS),
      ...(patching && command.kind === "switches"
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(command.patch) }
        : {}),
    });
    status = res.status;
    body = await res.json();
  } catch (error) {
    print(
      `cannot reach the simulator at ${command.baseUrl} (${(error as Error).message}); start it (shipping-api-sim) or pass --url`,
    );
    return EXIT_NOT_ACCEPTED;
  }
  if (status !== 200) {
    const message = (body as { errors?: Array<{ message?: string }> }).errors?.[0]?.message;
    print(`refused: ${message ?? `the simulator answered ${status}`}`);
    return status === 422 ? EXIT_INVALID_EVENT : EXIT_NOT_ACCEPTED;
  }
  if (command.kind === "switches") {
    print(JSON.stringify(body, null, 2));
    return EXIT_ACCEPTED;
  }
  const all = body as Delivery[];
  const shown = all.filter((d) => deliveryMatches(d, command.filter));
  for (const d of shown) print(`${d.at} ${formatAttempt(d)}`);
  print(`${shown.length} of ${all.length} attempts in the log`);
  return EXIT_ACCEPTED;
}
