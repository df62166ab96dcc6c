/** Parsing and validation of the `shipping-api-sim` command line. */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  DEFAULT_CLI_PORT,
  DEFAULT_HOST,
  DEFAULT_SWITCHES,
  MAX_DELIVERY_ATTEMPTS,
  MAX_DELIVERY_WAIT_MS,
  MAX_EVENTS_PER_DELIVERY,
} from "./constants";
import { InvalidInputError, parseShopSeeds } from "./schemas";
import type { SimulatorOptions, Switches } from "./types";

/** Usage text printed by --help and after a flag error. */
export const USAGE = `Usage: shipping-api-sim [options]
       shipping-api-sim trigger <hook> [--shop NAME] [--set field=value ...] [--set a.b=value ...]
                                [--unset field ...] [--count N] [--sender-key KEY] [--fixture FILE]
                                [--delay-ms MS] [--order in-order|reverse|shuffled] [--order-seed N]
                                [--url URL]
       shipping-api-sim resend <delivery id> [--url URL]
       shipping-api-sim deliveries [--hook HOOK] [--shop NAME] [--status RESULT|CODE] [--since 10m|DATE] [--url URL]
       shipping-api-sim switches [--set name=value ...] [--url URL]

Local simulator of the Shipping Service webhook-subscription API. With trigger or resend, send an event or a
logged delivery from a running simulator (--url, else $SHIPPING_SIM_URL, else http://127.0.0.1:4010) to the
subscribed receiver, print each attempt, and exit 0 when the receiver accepted it.

Options:
  --port <n>                    listen port, 0 = ephemeral (default ${DEFAULT_CLI_PORT})
  --host <addr>                 address to bind (default ${DEFAULT_HOST}); loopback only, unless --expose
  --expose                      bind a non-loopback --host (e.g. 0.0.0.0 in a container) and answer
                                control requests from other machines; --allow-host still applies
  --allow-host <name>           also answer requests whose Host names <name> (repeatable; default:
                                loopback names only, any other Host gets 403)
  --data <file>                 persist state to this JSON file (default: in memory)
  --seed <file>                 shops and keys, JSON: [{"name","keys":{"readWrite":[..],"readOnly":[..]}}]
  --auth both|basic|bearer      accepted Authorization scheme word (default both)
  --get-status 200|201          success status of GET (default 200)
  --overwrite new-id|keep-id    id of a re-posted hook (default new-id)
  --rate-limit off|production   per-key limits: POST 30, GET 150, DELETE 30 per 5 min (default off)
  --retry-after                 send Retry-After on 429 (default: not sent)
  --require-user-agent          answer 400 unless User-Agent is CustomApiCall/2 (default: not checked)
  --partial-ids subset|404      GET/DELETE of ids some of which are unknown (default subset)
  --delete-check-order ownership|existence
                                DELETE of another shop's id and an unknown one: 403 or 404 first
                                (default ownership)
  --shop-fields listed|omitted  shop_id and account_id in listings (default listed)
  --delivery-ca <file>          PEM of CA(s) trusted for webhook deliveries besides Node's roots
                                and NODE_EXTRA_CA_CERTS
  --delivery-attempts <n>       attempts per delivery, 1-${MAX_DELIVERY_ATTEMPTS} (default ${DEFAULT_SWITCHES.deliveryAttempts})
  --delivery-backoff-ms <ms>    wait before the 2nd attempt, doubling after (default ${DEFAULT_SWITCHES.deliveryBackoffMs})
  --delivery-failure non-2xx|5xx
                                answers retried as failures (default ${DEFAULT_SWITCHES.deliveryFailure})
  --delivery-timeout-ms <ms>    time the receiver has to answer (default ${DEFAULT_SWITCHES.deliveryTimeoutMs})
  --duplicates <rate>           share of deliveries sent twice, 0-1 (default ${DEFAULT_SWITCHES.deliveryDuplicates})
  --duplicate-id same|new       delivery id of a duplicate (default ${DEFAULT_SWITCHES.duplicateDeliveryId})
  --events-per-delivery <n>     most events in one delivery (default ${DEFAULT_SWITCHES.eventsPerDelivery})
  --event-field omitted|included
                                an "event" key in each payload (default ${DEFAULT_SWITCHES.eventField})
  --help                        show this help

Every delivery attempt prints one line: hook, shop, delivery id, target host, status or error, duration.
deliveries prints a running simulator's delivery log that way, filtered; switches prints its switches, or
changes them with --set (e.g. --set deliveryAttempts=5 --set deliveryFailure=5xx).
`;

/** A command-line error: the message names the flag and the allowed values. Exit status 2. */
export class UsageError extends Error {
  /** Build with a message naming the flag. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** What the command line asks for. */
type CliCommand = { help: true } | { help: false; options: SimulatorOptions };

/** The value of `--flag` if it is one of `allowed`; UsageError naming the flag and the values otherwise. */
export function choice<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
}

/**
 * What `parse` answers; an error it throws (node:util's parseArgs throws TypeError for an unknown flag or a
 * missing value) becomes a UsageError with the same message.
 */
export function usageErrorsOf<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** The integer value of `--flag`, in `min`-`max`; UsageError naming the flag and the range otherwise. */
export function integerFlag(
  flag: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
  throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got "${value}")`);
}

function rateFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^(0|1|0?\.\d+|1\.0*)$/.test(value)) return Number(value);
  throw new UsageError(`--${flag} must be a number from 0 to 1, e.g. 0.5 (got "${value}")`);
}

/** The delivery switches the command line sets. */
function deliverySwitches(values: ReturnType<typeof parse>["values"]): Partial<Switches> {
  const switches: Partial<Switches> = {};
  const set = <K extends keyof Switches>(key: K, value: Switches[K] | undefined): void => {
    if (value !== undefined) switches[key] = value;
  };
  set(
    "deliveryAttempts",
    integerFlag("delivery-attempts", values["delivery-attempts"], 1, MAX_DELIVERY_ATTEMPTS),
  );
  set(
    "deliveryBackoffMs",
    integerFlag("delivery-backoff-ms", values["delivery-backoff-ms"], 0, MAX_DELIVERY_WAIT_MS),
  );
  set("deliveryFailure", choice("delivery-failure", values["delivery-failure"], ["non-2xx", "5xx"] as const));
  set(
    "deliveryTimeoutMs",
    integerFlag("delivery-timeout-ms", values["delivery-timeout-ms"], 1, MAX_DELIVERY_WAIT_MS),
  );
  set("deliveryDuplicates", rateFlag("duplicates", values.duplicates));
  set("duplicateDeliveryId", choice("duplicate-id", values["duplicate-id"], ["same", "new"] as const));
  set(
    "eventsPerDelivery",
    integerFlag("events-per-delivery", values["events-per-delivery"], 1, MAX_EVENTS_PER_DELIVERY),
  );
  set("eventField", choice("event-field", values["event-field"], ["omitted", "included"] as const));
  return switches;
}

function readText(flag: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `--${flag} ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
}

function readSeed(file: string): SimulatorOptions["shops"] {
  const text = readText("seed", file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--seed ${file}: not valid JSON (${(error as Error).message})`);
  }
  const list = typeof json === "object" && json !== null && "shops" in json ? json.shops : json;
  try {
    return parseShopSeeds(list);
  } catch (error) {
    if (error instanceof InvalidInputError) throw new UsageError(`--seed ${file}: ${error.message}`);
    throw error;
  }
}

/** Parse argv (without node and script) into options; throws UsageError on any bad flag. */
export function parseCli(argv: string[]): CliCommand {
  const { values } = usageErrorsOf(() => parse(argv));
  if (values.help === true) return { help: true };
  const options: SimulatorOptions = {};
  const port = values.port ?? String(DEFAULT_CLI_PORT);
  if (!/^\d+$/.test(port) || Number(port) > 65_535) {
    throw new UsageError(`--port must be an integer from 0 to 65535 (got "${port}")`);
  }
  options.port = Number(port);
  if (values.host !== undefined) options.host = values.host;
  if (values.expose === true) options.expose = true;
  if (values["allow-host"] !== undefined) options.allowedHosts = [...values["allow-host"]];
  if (values.data !== undefined) options.dataFile = values.data;
  const shops = values.seed === undefined ? undefined : readSeed(values.seed);
  if (shops !== undefined) options.shops = shops;
  if (values["delivery-ca"] !== undefined)
    options.deliveryCa = readText("delivery-ca", values["delivery-ca"]);
  const switches: Partial<Switches> = {};
  const auth = choice("auth", values.auth, ["both", "basic", "bearer"] as const);
  if (auth !== undefined) switches.authScheme = auth;
  const getStatus = choice("get-status", values["get-status"], ["200", "201"] as const);
  if (getStatus !== undefined) switches.getStatus = getStatus === "201" ? 201 : 200;
  const overwrite = choice("overwrite", values.overwrite, ["new-id", "keep-id"] as const);
  if (overwrite !== undefined) switches.overwrite = overwrite;
  const rateLimit = choice("rate-limit", values["rate-limit"], ["off", "production"] as const);
  if (rateLimit !== undefined) switches.rateLimit = rateLimit;
  if (values["retry-after"] === true) switches.retryAfter = true;
  if (values["require-user-agent"] === true) switches.requireUserAgent = true;
  const partialIds = choice("partial-ids", values["partial-ids"], ["subset", "404"] as const);
  if (partialIds !== undefined) switches.partialIds = partialIds;
  const deleteCheckOrder = choice("delete-check-order", values["delete-check-order"], [
    "ownership",
    "existence",
  ] as const);
  if (deleteCheckOrder !== undefined) switches.deleteCheckOrder = deleteCheckOrder;
  const shopFields = choice("shop-fields", values["shop-fields"], ["listed", "omitted"] as const);
  if (shopFields !== undefined) switches.shopFields = shopFields;
  options.switches = { ...switches, ...deliverySwitches(values) };
  return { help: false, options };
}

/**
 * argv with `--flag -1` written `--flag=-1` for the string flags in `flags`, so parseArgs hands the value to
 * the flag's own check (which names the allowed range) instead of calling it an ambiguous argument.
 */
export function negativeValuesJoined(argv: string[], flags: Record<string, { type: string }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const next = argv[i + 1];
    const name = arg.startsWith("--") ? arg.slice(2) : "";
    if (
      next !== undefined &&
      /^-\d/.test(next) &&
      Object.hasOwn(flags, name) &&
      flags[name]?.type === "string"
    ) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

function parse(argv: string[]) {
  return parseArgs({
    args: negativeValuesJoined(argv, CLI_OPTIONS),
    strict: true,
    allowPositionals: false,
    options: CLI_OPTIONS,
  });
}

/** The flags of the simulator command (not of trigger, resend, deliveries, switches), for parseArgs. */
export const CLI_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  expose: { type: "boolean" },
  "allow-host": { type: "string", multiple: true },
  data: { type: "string" },
  seed: { type: "string" },
  auth: { type: "string" },
  "get-status": { type: "string" },
  overwrite: { type: "string" },
  "rate-limit": { type: "string" },
  "retry-after": { type: "boolean" },
  "require-user-agent": { type: "boolean" },
  "partial-ids": { type: "string" },
  "delete-check-order": { type: "string" },
  "shop-fields": { type: "string" },
  "delivery-ca": { type: "string" },
  "delivery-attempts": { type: "string" },
  "delivery-backoff-ms": { type: "string" },
  "delivery-failure": { type: "string" },
  "delivery-timeout-ms": { type: "string" },
  duplicates: { type: "string" },
  "duplicate-id": { type: "string" },
  "events-per-delivery": { type: "string" },
  "event-field": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;
