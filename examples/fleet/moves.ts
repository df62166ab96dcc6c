import { execFile } from "node:child_process";
import type { Deployment, Stack } from "@pulumi/pulumi/automation";
import type { Fleet } from "./fleet";

/** A subscription that one stack's state records. */
interface Recorded {
  readonly urn: string;
  readonly shop: string;
  readonly hook: string;
  /** The subscription's id at the service. */
  readonly id: string;
}

/** A shop and the two groups of its move: the one whose stack records it and the one the fleet file names. */
interface GroupChange {
  readonly shop: string;
  /** The group (stack) that records the shop's subscriptions. */
  readonly from: string;
  /** The group the fleet file now puts the shop in. */
  readonly to: string;
}

/** The shop and groups of a {@link ShopMove}, without its records: what its {@link MoveResult} starts from. */
function groupChangeOf({ shop, from, to }: GroupChange): GroupChange {
  return { shop, from, to };
}

/**
 * A shop whose subscriptions a group's stack records while the fleet file puts the shop in another group:
 * the old group leaves them out of its operations (never deletes them) and forgets them (`pulumi state
 * delete`) once the new group's stack records the same shop and hook.
 */
export interface ShopMove extends GroupChange {
  /** Records of hooks the new group declares: they move. */
  readonly moving: readonly Recorded[];
  /** Records of hooks the new group does not declare: the old group's operation deletes them, as any removed hook. */
  readonly dropped: readonly Recorded[];
}

/** How one shop's move ended in a run. */
export interface MoveResult extends GroupChange {
  /**
   * `moved`: every moving record is now in the new group's stack only; `waiting`: the new group's stack does
   * not record some of them yet, so the old one keeps those (live, not deleted); `failed`: forgetting failed.
   */
  readonly status: "moved" | "waiting" | "planned" | "failed";
  /** Ids the old group's stack forgot (the subscriptions stay live, in the new group's stack). */
  readonly forgotten: readonly string[];
  /** Hooks the old group's stack still records because the new group's does not yet. */
  readonly waiting: readonly string[];
  /** Why forgetting failed. */
  readonly error?: string;
}

/** The dynamic resource type of a subscription ends with this. */
const SUBSCRIPTION_TYPE = ":WebhookSubscription";

/** The subscriptions an exported stack records (pending deletions of a replacement left out). */
export function recordedSubscriptions(deployment: Deployment | undefined): Recorded[] {
  const resources =
    (
      deployment?.deployment as
        | {
            resources?: Array<{
              urn: string;
              type: string;
              delete?: boolean;
              outputs?: Record<string, unknown>;
            }>;
          }
        | undefined
    )?.resources ?? [];
  return resources.flatMap((r) => {
    const { shop, hook, subscriptionId } = r.outputs ?? {};
    if (!r.type.endsWith(SUBSCRIPTION_TYPE) || r.delete === true) return [];
    if (typeof shop !== "string" || typeof hook !== "string") return [];
    return [{ urn: r.urn, shop, hook, id: String(subscriptionId) }];
  });
}

/**
 * The shops that `stack` records and the fleet file puts in another group, by shop name, each one's records
 * in the order of the new group's hooks. A shop in no group is not a move (its removal is the stack's own).
 */
export function movesOutOf(stack: string, recorded: readonly Recorded[], fleet: Fleet): ShopMove[] {
  const groupOf = new Map<string, { group: string; hooks: string[] }>();
  for (const group of fleet.groups) {
    for (const shop of group.shops) {
      groupOf.set(shop.name, { group: group.stack, hooks: shop.hooks.map((h) => h.hook) });
    }
  }
  const moves = new Map<
    string,
    { shop: string; from: string; to: string; moving: Recorded[]; dropped: Recorded[] }
  >();
  for (const record of recorded) {
    const now = groupOf.get(record.shop);
    if (now === undefined || now.group === stack) continue;
    let move = moves.get(record.shop);
    if (move === undefined) {
      move = { shop: record.shop, from: stack, to: now.group, moving: [], dropped: [] };
      moves.set(record.shop, move);
    }
    (now.hooks.includes(record.hook) ? move.moving : move.dropped).push(record);
  }
  const order = (shop: string) => (r: Recorded) => groupOf.get(shop)?.hooks.indexOf(r.hook) ?? -1;
  return [...moves.values()]
    .sort((x, y) => (x.shop < y.shop ? -1 : x.shop > y.shop ? 1 : 0))
    .map((move) => {
      const at = order(move.shop);
      return { ...move, moving: move.moving.sort((x, y) => at(x) - at(y)) };
    });
}

/** The URNs an operation of the old group leaves alone: every moving record. */
export function excludedUrns(moves: readonly ShopMove[]): string[] {
  return moves.flatMap((move) => move.moving.map((r) => r.urn));
}

/** Longest a `pulumi state delete` may take, in ms. */
const STATE_DELETE_TIMEOUT_MS = 120_000;

/** Runs the stack's CLI with `args` in its workspace (its project folder, backend and environment). */
function runCli(stack: Stack, args: readonly string[], signal?: AbortSignal): Promise<string> {
  const { workspace } = stack;
  return new Promise((resolve, reject) => {
    execFile(
      workspace.pulumiCommand.command,
      [...args],
      {
        cwd: workspace.workDir,
        env: { ...process.env, ...workspace.envVars },
        timeout: STATE_DELETE_TIMEOUT_MS,
        ...(signal !== undefined ? { signal } : {}),
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`pulumi ${args.slice(0, 2).join(" ")}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
}

/** Forgets `urns` in the stack's state without deleting anything (`pulumi state delete`). */
async function forgetUrns(stack: Stack, urns: readonly string[], signal?: AbortSignal): Promise<void> {
  if (urns.length === 0) return;
  const args = (some: readonly string[]) => ["state", "delete", ...some, "--stack", stack.name, "--yes"];
  try {
    await runCli(stack, args(urns), signal);
  } catch (error) {
    // Older CLIs take one URN per call.
    if (urns.length === 1 || !/accepts at most 1 arg/i.test((error as Error).message)) throw error;
    for (const urn of urns) await runCli(stack, args([urn]), signal);
  }
}

/** The subscriptions another stack of the same project records; none when that stack does not exist. */
async function recordsOf(stack: Stack, other: string): Promise<Recorded[]> {
  try {
    return recordedSubscriptions(await stack.workspace.exportStack(other));
  } catch (error) {
    if (/no stack named|not found|does not exist/i.test((error as Error).message)) return [];
    throw error;
  }
}

/**
 * For the moves out of `stack`: reads each new group's stack, and forgets in `stack` (one `pulumi state
 * delete`) the moving records whose shop and hook the new group's stack records. The service keeps one
 * subscription per hook, so that record is of the live one. Deletes nothing at the service; what the new
 * group does not record yet stays in `stack`, reported as waiting.
 */
export async function forgetTakenOver(
  stack: Stack,
  moves: readonly ShopMove[],
  signal?: AbortSignal,
): Promise<MoveResult[]> {
  const moving = moves.filter((move) => move.moving.length > 0);
  const taken = new Map<ShopMove, Recorded[]>();
  try {
    const byGroup = new Map<string, Recorded[]>();
    for (const to of new Set(moving.map((move) => move.to))) byGroup.set(to, await recordsOf(stack, to));
    for (const move of moving) {
      const there = byGroup.get(move.to) ?? [];
      taken.set(
        move,
        move.moving.filter((r) => there.some((t) => t.shop === r.shop && t.hook === r.hook)),
      );
    }
    await forgetUrns(
      stack,
      [...taken.values()].flat().map((r) => r.urn),
      signal,
    );
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "";
    return moving.map((move) => ({
      ...groupChangeOf(move),
      status: "failed",
      forgotten: [],
      waiting: move.moving.map((r) => r.hook),
      error: message,
    }));
  }
  return moving.map((move) => {
    const forgot = taken.get(move) ?? [];
    const waiting = move.moving.filter((r) => !forgot.includes(r)).map((r) => r.hook);
    return {
      ...groupChangeOf(move),
      status: waiting.length === 0 ? "moved" : "waiting",
      forgotten: forgot.map((r) => r.id),
      waiting,
    };
  });
}
