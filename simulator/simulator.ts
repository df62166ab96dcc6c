/** `startSimulator`: validates options, wires store, persistence, log, faults, deliveries and the server. */
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { basename } from "node:path";
import { KeyRing } from "./auth";
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_REQUEST_LOG_BYTES,
  DEFAULT_REQUEST_LOG_LIMIT,
  DEFAULT_SHOPS,
  DEFAULT_SWITCHES,
  MIN_REQUEST_LOG_BYTES,
} from "./constants";
import { isLoopbackAddress } from "./control";
import { ApiError, ERROR_CODES } from "./errors";
import { Deliverer } from "./events";
import { FaultList } from "./faults";
import { loadState, removeInterruptedSaves, StateWriter } from "./persistence";
import { RateLimiter } from "./rate-limit";
import { RequestLog } from "./request-log";
import { InvalidInputError, parseEvent, parseFault, parseShopSeeds, parseSwitchesPatch } from "./schemas";
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
  port: number;
  logLimit: number;
  logBytes: number;
}

function checkOptions(options: SimulatorOptions): CheckedOptions {
  const host = options.host ?? DEFAULT_HOST;
  if (!isLoopbackHost(host)) {
    throw new InvalidInputError(`host "${host}" is not a loopback address; use 127.0.0.1, ::1 or localhost`);
  }
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidInputError(`port ${port} is not an integer in 0-65535`);
  }
  const logLimit = options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT;
  if (!Number.isInteger(logLimit) || logLimit < 1) {
    throw new InvalidInputError(`requestLogLimit ${logLimit} is not a positive integer`);
  }
  const logBytes = options.requestLogBytes ?? DEFAULT_REQUEST_LOG_BYTES;
  if (!Number.isSafeInteger(logBytes) || logBytes < MIN_REQUEST_LOG_BYTES) {
    throw new InvalidInputError(
      `requestLogBytes ${logBytes} is not an integer of at least ${MIN_REQUEST_LOG_BYTES} (1 MiB)`,
    );
  }
  return { host: host.startsWith("[") ? host.slice(1, -1) : host, port, logLimit, logBytes };
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
}

function sameRateLimit(a: Switches["rateLimit"], b: Switches["rateLimit"]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Start a simulator. Rejects with InvalidInputError on bad options, SimulatorStateError on a bad data file. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const { host, port, logLimit, logBytes } = checkOptions(options);
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
  const deliverer = new Deliverer(store, (shop) => tokens.get(shop), options.deliveryCa);

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
    emit: async (event) => deliverer.emit(parseEvent(event)),
  };

  const simServer = createSimServer({
    api: { store, ring, limiter, switches: () => switches, persist, log },
    control: sim,
    log,
    faults,
  });
  await new Promise<void>((resolve, reject) => {
    simServer.server.once("error", reject);
    simServer.server.listen(port, host, () => {
      simServer.server.off("error", reject);
      resolve();
    });
  });
  const address = simServer.server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

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
