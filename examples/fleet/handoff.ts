import type { Stack } from "@pulumi/pulumi/automation";
import type { FleetGroup } from "./fleet";
import { groupShopsValue, readShopKeys, SHOPS_ENV } from "./keys";
import {
  excludedUrns,
  forgetTakenOver,
  type MoveResult,
  movesOutOf,
  recordedSubscriptions,
  type ShopMove,
} from "./moves";
import { mapWithConcurrency } from "./pool";
import type { FleetRunOptions, StackProgress } from "./types";

/** Where a run collects its moves: the stacks to hand over after every up, and how each move ended. */
export interface MoveLedger {
  readonly handoffs: Array<{ readonly stack: Stack; readonly moves: readonly ShopMove[] }>;
  readonly results: MoveResult[];
}

/**
 * Before a stack's operation, for the shops it records that the fleet file puts in another group: gives the
 * stack their keys (it deletes the hooks their new group drops; its refresh reads them) and returns the URNs
 * the operation must leave out (never delete). An up or a preview says so first; an up forgets them after
 * every stack's up ({@link handOver}). A destroy first forgets what the new groups' stacks record, then
 * leaves out the rest unless the new group is destroyed in the same run (then nothing else would).
 */
export async function prepareMoves(
  options: FleetRunOptions,
  env: NodeJS.ProcessEnv,
  group: FleetGroup,
  stack: Stack,
  ledger: MoveLedger,
  emit: (event: StackProgress) => void,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const { operation } = options;
  const moves = movesOutOf(group.stack, recordedSubscriptions(await stack.exportStack()), options.fleet);
  if (moves.length === 0) return [];
  stack.workspace.envVars[SHOPS_ENV] = groupShopsValue(
    group,
    readShopKeys(env),
    moves.map((move) => move.shop),
  );
  if (operation !== "destroy") {
    emit({ kind: "moving", stack: group.stack, operation, moves });
    if (operation === "up") ledger.handoffs.push({ stack, moves });
    else {
      for (const { shop, from, to, moving } of moves) {
        const hooks = moving.map((r) => r.hook);
        ledger.results.push({ shop, from, to, status: "planned", forgotten: [], waiting: hooks });
      }
    }
    return excludedUrns(moves);
  }
  const destroyedToo = (to: string) => !options.only?.length || options.only.includes(to);
  const exclude: string[] = [];
  for (const result of await forgetTakenOver(stack, moves, signal)) {
    const move = moves.find((m) => m.shop === result.shop);
    const kept = result.status === "failed" || !destroyedToo(result.to) ? result.waiting : [];
    exclude.push(...(move?.moving ?? []).filter((r) => kept.includes(r.hook)).map((r) => r.urn));
    if (result.forgotten.length === 0 && kept.length === 0) continue; // deleted with the rest of this stack
    const shown: MoveResult =
      kept.length > 0 || result.status === "failed" ? result : { ...result, status: "moved", waiting: [] };
    emit({ kind: "move", stack: group.stack, operation, move: shown });
    ledger.results.push(shown);
  }
  return exclude;
}

/** An empty {@link MoveLedger}. */
export function newLedger(): MoveLedger {
  return { handoffs: [], results: [] };
}

/**
 * After every stack's up: each stack that records shops of another group forgets what that group's stack now
 * records (its up adopted the live subscriptions), at most `concurrency` stacks at once, so that no stack
 * ever deletes them. Returns every move of the run, by old group in the fleet file's order, then by shop.
 */
export async function handOver(
  ledger: MoveLedger,
  options: FleetRunOptions,
  emit: (event: StackProgress) => void,
): Promise<MoveResult[]> {
  await mapWithConcurrency(
    ledger.handoffs,
    options.concurrency,
    async ({ stack, moves }) => {
      const results = await forgetTakenOver(stack, moves, options.signal);
      for (const move of results)
        emit({ kind: "move", stack: move.from, operation: options.operation, move });
      ledger.results.push(...results);
    },
    () => undefined,
    options.signal,
  );
  const order = new Map(options.fleet.groups.map((group, i) => [group.stack, i]));
  const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return ledger.results.sort(
    (x, y) => (order.get(x.from) ?? 0) - (order.get(y.from) ?? 0) || byName(x.shop, y.shop),
  );
}
