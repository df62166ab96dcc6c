/** `startSimulator`: validates options, wires store, persistence, log, faults, deliveries and the server. */
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { basename } from "node:path";
import { KeyRing } from "./auth";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_DELIVERY_LOG_BYTES,
  DEFAULT_HOST,
  DEFAULT_LISTING_TIMEOUT_MS,
  DEFAULT_PORT,
  DEFAULT_REQUEST_LOG_BYTES,
  DEFAULT_REQUEST_LOG_LIMIT,
  DEFAULT_SHOPS,
  DEFAULT_SWITCHES,
  HEADERS_TIMEOUT_MS,
  MAX_HEADERS_TIMEOUT_MS,
  MAX_TIMER_MS,
  MIN_REQUEST_LOG_BYTES,
} from "./constants";
import type { ControlTarget } from "./control";
import { isLoopbackAddress } from "./controlGuard";
import { asEmitted, asSummary } from "./deliveryLog";
import { ApiError, ERROR_CODES } from "./errors";
import { parseEvent, parseResend } from "./eventSchema";
import { Deliverer } from "./events";
import { FaultList } from "./faults";
import { loadState, removeInterruptedSaves, StateWriter } from "./persistence";
import { RateLimiter } from "./rateLimit";
import { RequestLog } from "./requestLog";
import { InvalidInputError, parseFault, parseShopSeeds, parseSwitchesPatch } from "./schemas";
import { createSimServer } from "./server";
import { SubscriptionStore } from "./store";
import type { RunningSimulator, SimulatorOptions, Switches } from "./types";

/** Whether `host` names the loopback interface: "localhost", 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare === "localhost" || (isIP(bare) !== 0 && isLoopbackAddress(bare));
}

interface CheckedOptions {
  host: string;
  exposed: boolean;
  allowedHosts: ReadonlySet<string>;
  port: number;
  logLimit: number;
  logBytes: number;
  deliveryLogBytes: number;
  bodyTimeoutMs: number;
  headersTimeoutMs: number;
  listingTimeoutMs: number;
}

/** `value`, or an InvalidInputError naming the option when it is not an integer in `min`-`max`. */
function integerOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidInputError(`${name} ${value} is not an integer in ${min}-${max}`);
  }
  return value;
}

/** A name `allowedHosts` may hold: a DNS name or IPv4 address (letters, digits, `.`, `-`, `_`), or an [IPv6]. */
const ALLOWED_HOST = /^([a-z0-9_]([a-z0-9._-]{0,252})|\[[0-9a-f:.]+\])$/i;

function allowedHostNames(names: unknown): ReadonlySet<string> {
  if (names === undefined) return new Set();
  if (!Array.isArray(names)) throw new InvalidInputError("allowedHosts must be an array of host names");
  for (const name of names) {
    if (typeof name !== "string" || !ALLOWED_HOST.test(name)) {
      throw new InvalidInputError(
        `allowedHosts: ${JSON.stringify(name)} is not a host name (no port, no scheme), e.g. "sim" or "shipping-sim.internal"`,
      );
    }
  }
  return new Set(names.map((n: string) => n.toLowerCase().replace(/^\[(.*)\]$/, "$1")));
}

/** The address of `baseUrl`: the bound one, or loopback when bound to every address (0.0.0.0, ::). */
function shownAddress(address: AddressInfo): string {
  if (address.address === "0.0.0.0") return "127.0.0.1";
  if (address.address === "::") return "[::1]";
  return address.family === "IPv6" ? `[${address.address}]` : address.address;
}

function checkOptions(options: SimulatorOptions): CheckedOptions {
  const host = options.host ?? DEFAULT_HOST;
  if (options.expose !== undefined && typeof options.expose !== "boolean")
    throw new InvalidInputError("expose must be true or false");
  if (!isLoopbackHost(host) && options.expose !== true) {
    throw new InvalidInputError(
      `host "${host}" is not a loopback address; use 127.0.0.1, ::1 or localhost, or add expose: true (--expose) to bind it on purpose (README: Binding another address)`,
    );
  }
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidInputError(`port ${port} is not an integer in 0-65535`);
  }
  const logLimit = options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT;
  if (!Number.isInteger(logLimit) || logLimit < 1) {
    throw new InvalidInputError(`requestLogLimit ${logLimit} is not a positive integer`);
  }
  const bodyTimeoutMs = integerOption(
    "bodyTimeoutMs",
    options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    1,
    MAX_TIMER_MS,
  );
  const headersTimeoutMs = integerOption(
    "headersTimeoutMs",
    options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    1,
    MAX_HEADERS_TIMEOUT_MS,
  );
  const listingTimeoutMs = integerOption(
    "listingTimeoutMs",
    options.listingTimeoutMs ?? DEFAULT_LISTING_TIMEOUT_MS,
    1,
    MAX_TIMER_MS,
  );
  const bytes = (name: string, value: number): number => {
    if (Number.isSafeInteger(value) && value >= MIN_REQUEST_LOG_BYTES) return value;
    throw new InvalidInputError(
      `${name} ${value} is not an integer of at least ${MIN_REQUEST_LOG_BYTES} (1 MiB)`,
    );
  };
  const logBytes = bytes("requestLogBytes", options.requestLogBytes ?? DEFAULT_REQUEST_LOG_BYTES);
  const deliveryLogBytes = bytes("deliveryLogBytes", options.deliveryLogBytes ?? DEFAULT_DELIVERY_LOG_BYTES);
  if (options.onDelivery !== undefined && typeof options.onDelivery !== "function") {
    throw new InvalidInputError("onDelivery must be a function (it is called with each delivery attempt)");
  }
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  return {
    host: bare,
    allowedHosts: allowedHostNames(options.allowedHosts),
    exposed: options.expose === true,
    port,
    logLimit,
    logBytes,
    deliveryLogBytes,
    bodyTimeoutMs,
    headersTimeoutMs,
    listingTimeoutMs,
  };
}

/**
 * The 500 of a write whose save failed: names the file by its base name only (an answer must not reveal
 * the machine's paths) and the error code; the original error is the `cause`.
 */
function saveFailed(dataFile: string, error: unknown): ApiError {
  const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
  const failure = new ApiError(
    500,
    ERROR_CODES.generic,
    "Internal server error",
    `the simulator could not save its data file "${basename(dataFile)}" (${code}); the change is kept in memory and saved with the next one`,
  );
  failure.cause = error;
  return failure;
}

/** What the control endpoints need beyond the public RunningSimulator. */
interface ControlExtras {
  activeFaults: FaultList["list"];
  requestChunks: RequestLog["listingChunks"];
  deliveryChunks: Deliverer["listingChunks"];
  emitSummary: ControlTarget["emitSummary"];
  resendSummary: ControlTarget["resendSummary"];
}

function sameRateLimit(a: Switches["rateLimit"], b: Switches["rateLimit"]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Start a simulator. Rejects with InvalidInputError on bad options, SimulatorStateError on a bad data file. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const checked = checkOptions(options);
  const { host, port, logLimit, logBytes, bodyTimeoutMs } = checked;
  const shops = parseShopSeeds(structuredClone(options.shops ?? DEFAULT_SHOPS));
  let switches: Switches = { ...DEFAULT_SWITCHES, ...parseSwitchesPatch(options.switches ?? {}) };

  const store = new SubscriptionStore(shops.map((s) => s.name));
  if (options.dataFile !== undefined) {
    const snapshot = loadState(options.dataFile);
    if (snapshot !== undefined) store.load(snapshot);
    removeInterruptedSaves(options.dataFile);
  }
  const dataFile = options.dataFile;
  const writer = dataFile === undefined ? undefined : new StateWriter(dataFile, () => store.snapshot());
  const persist = async (): Promise<void> => {
    if (writer === undefined || dataFile === undefined) return;
    try {
      await writer.save();
    } catch (error) {
      throw saveFailed(dataFile, error);
    }
  };

  const ring = new KeyRing(shops);
  const limiter = new RateLimiter();
  const log = new RequestLog(logLimit, logBytes);
  const faults = new FaultList();
  const tokens = new Map(
    shops.map((s) => [s.name, Buffer.from(s.keys.readWrite[0] ?? "").toString("base64")]),
  );
  const deliverer = new Deliverer({
    store,
    switches: () => switches,
    apiKeyToken: (shop) => tokens.get(shop),
    scrub: (text) => ring.scrub(text),
    firstShop: shops[0]?.name ?? "",
    extraCa: options.deliveryCa,
    logBytes: checked.deliveryLogBytes,
    onAttempt: options.onDelivery,
  });

  const sim: Omit<RunningSimulator, "baseUrl" | "close"> & ControlExtras = {
    subscriptions: (shop) => store.list(shop),
    state: () => store.snapshot(),
    requests: () => log.list(),
    requestChunks: () => log.listingChunks(),
    clearRequests: () => log.clear(),
    switches: () => structuredClone(switches),
    setSwitches: (patch) => {
      const next = { ...switches, ...parseSwitchesPatch(patch) };
      if (!sameRateLimit(next.rateLimit, switches.rateLimit)) limiter.clear();
      switches = next;
    },
    addFault: (fault) => faults.add(parseFault(fault)),
    clearFaults: () => faults.clear(),
    activeFaults: () => faults.list(),
    reset: async () => {
      store.clear();
      log.clear(true);
      faults.clear();
      limiter.clear();
      deliverer.clear();
      await persist();
    },
    deliveries: () => deliverer.list(),
    deliveryChunks: () => deliverer.listingChunks(),
    emit: async (event) => asEmitted(await deliverer.emit(parseEvent(event))),
    resend: async (id) => asEmitted(await deliverer.resend(parseResend({ id }))),
    emitSummary: async (event) => asSummary(await deliverer.emit(parseEvent(event))),
    resendSummary: async (id) => asSummary(await deliverer.resend(parseResend({ id }))),
  };

  const simServer = createSimServer({
    api: { store, ring, limiter, switches: () => switches, persist, log, bodyTimeoutMs },
    control: sim,
    log,
    faults,
    listingTimeoutMs: checked.listingTimeoutMs,
    headersTimeoutMs: checked.headersTimeoutMs,
    allowedHosts: checked.allowedHosts,
    exposed: checked.exposed,
  });
  await new Promise<void>((resolve, reject) => {
    simServer.server.once("error", reject);
    simServer.server.listen(port, host, () => {
      simServer.server.off("error", reject);
      resolve();
    });
  });
  const address = simServer.server.address() as AddressInfo;
  const shownHost = shownAddress(address);

  let closing: Promise<void> | undefined;
  return {
    ...sim,
    baseUrl: `http://${shownHost}:${address.port}`,
    close: () => {
      closing ??= (async () => {
        await simServer.close();
        await writer?.flush();
        await deliverer.close();
      })();
      return closing;
    },
  };
}
