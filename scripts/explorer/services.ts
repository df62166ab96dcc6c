/**
 * The two simulated services ("main" and "other", like staging and production): the same shops and keys
 * on each, ids counted independently (so ids collide across services, as they would in reality), and a
 * back-office client that changes subscriptions out of band.
 */

import type { Hook } from "../../contract/hooks";
import type { FaultSpec, RunningSimulator, ShopSeed, Switches } from "../../simulator";
import { startSimulator } from "../../simulator";
import type { LiveSub, Snapshot } from "./ledger";
import {
  type FaultName,
  type KEY_NAMES,
  SERVICE_NAMES,
  type ServiceName,
  SHOP_KEYS,
  type ShopName,
  type SwitchPatch,
  type Target,
} from "./model";

const SHOPS: ShopSeed[] = [
  { name: "acme", keys: { readWrite: [SHOP_KEYS.acme1.key, SHOP_KEYS.acme2.key] } },
  { name: "globex", keys: { readWrite: [SHOP_KEYS.globex.key] } },
];

/** The `shop_id` both services report for a shop: its 1-based position in the seed. */
export function shopIdOf(shop: ShopName): string {
  return String(SHOPS.findIndex((s) => s.name === shop) + 1);
}

/** Switches every run starts from (the simulator's defaults, written out so a reset restores them). */
const BASE_SWITCHES: Partial<Switches> = {
  authScheme: "both",
  getStatus: 200,
  overwrite: "new-id",
  partialIds: "subset",
  deleteCheckOrder: "ownership",
  shopFields: "listed",
};

/** After the first POST of the operation, the read-back of the ids it wrote fails with 500, once. */
const READ_BACK_500_ONCE: FaultSpec = {
  kind: "status",
  status: 500,
  method: "GET",
  request: "ids",
  after: "POST",
  count: 1,
};
/** After the first POST, every GET fails with 500 (read-backs, listings). */
const GETS_500_AFTER_POST: FaultSpec = { kind: "status", status: 500, method: "GET", after: "POST" };
/** After the first POST, every listing fails with 500 (the one that confirms a write whose answer was lost). */
const LISTINGS_500_AFTER_POST: FaultSpec = {
  kind: "status",
  status: 500,
  method: "GET",
  request: "listing",
  after: "POST",
};

/**
 * Faults of {@link FaultName}, armed for one operation: bursts the client's retries absorb, or not (a POST's
 * reset is never retried); and
 * faults between a write and its read-back (the POST applied, then what reads it fails: simulator/README.md,
 * "Faults", `after` and `request`).
 */
const FAULT_SPECS: Record<FaultName, readonly FaultSpec[]> = {
  "503-burst": [{ kind: "status", status: 503, count: 2 }],
  "reset-burst": [{ kind: "reset", count: 2 }],
  "drop-after-write": [{ kind: "drop-after-write", method: "POST", count: 1 }],
  "500-once": [{ kind: "status", status: 500, count: 1 }],
  "503-endless": [{ kind: "status", status: 503 }],
  "500-after-post-once": [READ_BACK_500_ONCE],
  "500-after-post": [GETS_500_AFTER_POST],
  "lost-post-then-500": [{ kind: "drop-after-write", method: "POST" }, LISTINGS_500_AFTER_POST],
  "late-apply-post": [{ kind: "late-apply", method: "POST", ms: 0, untilClientGone: true, count: 1 }],
};

/**
 * Faults that may legitimately fail the operation they are armed for, and what its error must then say: the
 * status, or for lost answers that the connection was closed.
 */
export const FAILING_FAULTS: ReadonlyMap<FaultName, RegExp> = new Map([
  // A POST reset once sent is not sent again (its outcome is unknown; the service may still apply it late).
  ["reset-burst", /ECONNRESET|UND_ERR_SOCKET|outcome is unknown/],
  ["500-once", /50[03]/],
  ["503-endless", /50[03]/],
  ["500-after-post-once", /500/],
  ["500-after-post", /500/],
  ["lost-post-then-500", /500|closed|socket|ECONNRESET/i],
  // The POST's answer never comes: its outcome is unknown, so it is not sent again.
  ["late-apply-post", /outcome is unknown/],
]);

/** How long a held write may take to land once its operation ended: the client gives up after 2 s. */
const LATE_WRITE_DEADLINE_MS = 30_000;
/** How often {@link Services.settleLateWrites} looks. */
const LATE_WRITE_POLL_MS = 50;

/** Both simulators of an exploration. */
export class Services {
  private constructor(private readonly sims: Record<ServiceName, RunningSimulator>) {}

  /** Starts both simulators on loopback. */
  static async start(): Promise<Services> {
    const [main, other] = await Promise.all(
      SERVICE_NAMES.map(() => startSimulator({ shops: SHOPS, switches: BASE_SWITCHES })),
    );
    return new Services({ main: main as RunningSimulator, other: other as RunningSimulator });
  }

  /** Empties both services and restores their switches (between runs). */
  async reset(): Promise<void> {
    for (const sim of Object.values(this.sims)) {
      sim.reset();
      sim.setSwitches(BASE_SWITCHES);
    }
  }

  /** Stops both simulators. */
  async close(): Promise<void> {
    await Promise.all(Object.values(this.sims).map((sim) => sim.close()));
  }

  /** The base URL of a target, spelled as the target says. */
  baseUrl(target: Target): string {
    const base = this.sims[target.service].baseUrl;
    return target.spelling === "ip" ? base : base.replace("127.0.0.1", "localhost");
  }

  /** Every live subscription of every shop of both services, keyed by real shop `<service>/<shop>`. */
  snapshot(): Snapshot {
    const snapshot = new Map<string, LiveSub[]>();
    for (const service of SERVICE_NAMES) {
      const shops = this.sims[service].state().shops;
      for (const [shop, subs] of Object.entries(shops)) {
        const real = `${service}/${shop}`;
        snapshot.set(
          real,
          subs.map((s) => ({ shop: real, id: s.id, hook: s.hook, url: s.url })),
        );
      }
    }
    return snapshot;
  }

  /** POST and DELETE requests both services have received so far. */
  writeCount(): number {
    let count = 0;
    for (const sim of Object.values(this.sims)) {
      count += sim.requests().filter((r) => r.method === "POST" || r.method === "DELETE").length;
    }
    return count;
  }

  /** Applies a switch; false when this simulator does not know it (an older simulator). */
  setSwitch(service: ServiceName, patch: SwitchPatch): boolean {
    return this.trySetSwitches(this.sims[service], patch);
  }

  /** Arms a fault for the next operation. */
  armFault(service: ServiceName, fault: FaultName): void {
    for (const spec of FAULT_SPECS[fault]) this.sims[service].addFault(spec);
  }

  /** Clears every fault. */
  clearFaults(): void {
    for (const sim of Object.values(this.sims)) sim.clearFaults();
  }

  /**
   * Waits until every request a `late-apply` fault holds has been applied (its client gone), so that what
   * lands late is part of the operation that sent it, not of a later step. Throws after `deadlineMs`.
   */
  async settleLateWrites(deadlineMs = LATE_WRITE_DEADLINE_MS): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    const held = () =>
      Object.values(this.sims).some((sim) =>
        sim
          .requests()
          .some((r) => r.fault === "late-apply" && r.appliedStatus === undefined && r.aborted !== true),
      );
    while (held()) {
      if (Date.now() > deadline)
        throw new Error(`a late-applied write was still held after ${deadlineMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, LATE_WRITE_POLL_MS));
    }
  }

  /**
   * A back-office change through the API with the key of `keyName`: delete the hook's subscription,
   * re-point it at `url`, or create it (which overwrites). Nothing happens when there is nothing to delete
   * or re-point; answers whether something was sent.
   */
  async backOffice(
    service: ServiceName,
    keyName: (typeof KEY_NAMES)[number],
    action: "delete" | "repoint" | "create",
    hook: Hook,
    url: string,
  ): Promise<boolean> {
    const sim = this.sims[service];
    const { shop, key } = SHOP_KEYS[keyName];
    const current = sim.subscriptions(shop).find((s) => s.hook === hook);
    if (action !== "create" && current === undefined) return false;
    const word = sim.switches().authScheme === "basic" ? "basic" : "bearer";
    const headers = {
      authorization: `${word} ${Buffer.from(key).toString("base64")}`,
      "content-type": "application/json",
    };
    const response =
      action === "delete"
        ? await fetch(`${sim.baseUrl}/webhook_subscriptions/${current?.id}`, { method: "DELETE", headers })
        : await fetch(`${sim.baseUrl}/webhook_subscriptions`, {
            method: "POST",
            headers,
            body: JSON.stringify({ data: { webhook_subscriptions: [{ hook, url }] } }),
          });
    await response.arrayBuffer();
    if (!response.ok)
      throw new Error(`back office ${action} ${hook} on ${service}: status ${response.status}`);
    return true;
  }

  private trySetSwitches(sim: RunningSimulator, patch: SwitchPatch | Partial<Switches>): boolean {
    try {
      sim.setSwitches(patch as Partial<Switches>);
      return true;
    } catch {
      return false;
    }
  }
}
