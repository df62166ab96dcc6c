/**
 * The shared vocabulary of the ownership tables (ownership.read.test.ts, ownership.writes.test.ts): shops,
 * live subscriptions, the recorded subscription, a row of facts, and a verdict in a few words.
 */
import type { LiveSubscription } from "../../provider/client/apiSchemas";
import type { ShopTarget } from "../../provider/config/settings";
import { decideRecorded } from "../../provider/rules/ownership";
import type {
  Declared,
  GoneAnswer,
  Operation,
  RecordedFacts,
  ShopFacts,
  Verdict,
} from "../../provider/rules/ownershipFacts";
import type { Recorded } from "../../provider/rules/recorded";

export const API = "http://127.0.0.1:1";
export const OTHER_API = "http://127.0.0.1:2";
const HOOK = "order_status_change";
export const URL = "https://hooks.example.com/o";

function target(label: string, options: { api?: string; key?: string; pin?: string } = {}): ShopTarget {
  const api = options.api ?? API;
  return {
    api,
    shopKey: `${api}#${options.key ?? label}`,
    label,
    baseUrl: api,
    apiKey: options.key ?? label,
    authScheme: "auto",
    ...(options.pin !== undefined ? { pin: { shopId: options.pin, setting: "shipping:shopId" } } : {}),
  };
}

/** A live subscription: id, then hook and URL (default the recorded ones), and the shop the service reports. */
export function live(
  id: number,
  shopId: string | undefined,
  over: Partial<LiveSubscription> = {},
): LiveSubscription {
  return { id, hook: HOOK, url: URL, ...(shopId !== undefined ? { shopId } : {}), ...over };
}

interface ShopSpec {
  readonly listing?: readonly LiveSubscription[];
  readonly listedEmpty?: boolean;
  readonly learnt?: string;
  readonly seen?: boolean;
}
export function shop(t: ShopTarget, spec: ShopSpec = {}): ShopFacts {
  return {
    target: t,
    ...(spec.listing !== undefined ? { listing: spec.listing } : {}),
    listedEmpty: spec.listedEmpty ?? spec.listing?.length === 0,
    ...(spec.learnt !== undefined ? { learnt: { shopId: spec.learnt } } : {}),
    seen: spec.seen ?? false,
  };
}

export const ACME = target("(default)");
export const ALT = target("alt", { key: "acme-second-key" });
export const MOVED = target("(default)", { api: OTHER_API });
export const PINNED = target("(default)", { pin: "1" });
export const RECORDED: Recorded = {
  id: 7,
  hook: HOOK,
  url: URL,
  shop: undefined,
  api: API,
  shopId: "1",
  accountId: undefined,
};
export const FROM_01: Recorded = { ...RECORDED, api: undefined, shopId: undefined };
/** Recorded where the service named the account too: shop 1 of account "a" (shop ids are per account). */
export const IN_ACCOUNT_A: Recorded = { ...RECORDED, accountId: "a" };
export const GONE_ENTRY = new Error('shipping:shops: has no shop "old"');

export interface Row {
  readonly op: Operation;
  readonly recorded?: Recorded;
  readonly named: ShopFacts | { missing: unknown };
  readonly others?: readonly ShopFacts[];
  readonly claimedAt?: readonly string[];
  /** Listed ids another resource of this deployment holds. */
  readonly claimedLive?: readonly number[];
  readonly answer?: GoneAnswer;
  readonly declaredIn?: readonly Declared[];
  readonly handedOnIn?: readonly Declared[];
  /** Whether the shop was listed again for this decision; true unless the row says (the decision after it). */
  readonly relisted?: boolean;
}

/**
 * Another resource of the deployment declares the recorded hook for `target`'s shop: at another URL (a rename
 * that changed it), or at the recorded URL (the recorded resource replaced by `up --replace`, or a rename that
 * kept it), with or without a create of the hook that failed in this deployment.
 */
export function declaredFor(
  target: ShopTarget,
  at: "otherUrl" | "recordedUrl" = "otherUrl",
  createFailed = false,
): Declared {
  return { shopKey: target.shopKey, atRecordedUrl: at === "recordedUrl", createFailed };
}

/**
 * The same, through credentials configured only in another provider process (an explicit provider's own key):
 * the service named the recorded shop for them, or no shop (their listings failed).
 */
export function declaredThrough(
  placed: "recordedShop" | "unplaced",
  at: "otherUrl" | "recordedUrl",
  createFailed: boolean,
): Declared {
  return {
    ...(placed === "recordedShop" ? { inRecordedShop: true } : {}),
    atRecordedUrl: at === "recordedUrl",
    createFailed,
  };
}

/** A verdict in a few words: its kind, the shop it is at, a warning, or the start of a refusal. */
function summary(verdict: Verdict, recorded: Recorded): string {
  switch (verdict.kind) {
    case "needListing":
    case "needGoneAnswer":
      return `${verdict.kind} ${verdict.target.label}@${verdict.target.api.slice(-1)}${"afresh" in verdict ? " afresh" : ""}`;
    case "ours":
      // Another live id than the recorded one: the one that took its place (a late write), said in its warning.
      if (verdict.live !== undefined && verdict.live.id !== recorded.id)
        return `ours at ${verdict.target.label} as ${verdict.live.id}`;
      return `ours at ${verdict.target.label}${verdict.warning === undefined ? "" : ", drifted"}`;
    case "taken":
      return `taken at ${verdict.target.label}`;
    case "gone":
      return verdict.warning === undefined ? "gone" : "gone, warning";
    case "claimed":
      return "claimed";
    case "refuse":
      return `refuse: ${(verdict.error as Error).message}`;
  }
}

/** A row's verdict in a few words: its facts, with the recorded subscription, no other shop and no claim unless it says. */
export function verdictOf(row: Row): string {
  const facts: RecordedFacts = {
    operation: row.op,
    recorded: row.recorded ?? RECORDED,
    named: row.named,
    others: row.others ?? [],
    claimedAt: row.claimedAt ?? [],
    ...(row.claimedLive !== undefined ? { claimedLive: row.claimedLive } : {}),
    ...(row.answer !== undefined ? { goneAnswer: row.answer } : {}),
    ...(row.declaredIn !== undefined ? { declaredIn: row.declaredIn } : {}),
    ...(row.handedOnIn !== undefined ? { handedOnIn: row.handedOnIn } : {}),
    relisted: row.relisted ?? true,
  };
  return summary(decideRecorded(facts), facts.recorded);
}
