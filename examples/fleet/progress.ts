import type { OpMap } from "@pulumi/pulumi/automation";
import type { MoveResult, ShopMove } from "./moves";
import type { FleetResult, StackProgress } from "./types";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `create 10, same 2`, or `no changes` when the engine reported none. */
function formatChanges(changes: OpMap): string {
  const entries = Object.entries(changes).filter(([, count]) => (count ?? 0) > 0);
  return entries.length === 0 ? "no changes" : entries.map(([op, count]) => `${op} ${count}`).join(", ");
}

const list = (items: readonly string[]) => items.join(", ");
/** `subscription 7` or `subscriptions 8, 9`. */
const subscriptions = (ids: readonly string[]) => `subscription${ids.length === 1 ? "" : "s"} ${list(ids)}`;
/** `it` or `them`. */
const them = (items: readonly unknown[]) => (items.length === 1 ? "it" : "them");

/** What an operation does with one shop that its stack records and the fleet file puts in another group. */
function movingLine(prefix: string, operation: string, move: ShopMove): string {
  const { moving, dropped } = move;
  let line = `${prefix}: shop ${move.shop} moves to ${move.to}`;
  if (moving.length > 0) {
    line += `: ${move.from} leaves ${subscriptions(moving.map((r) => r.id))} out of this ${operation} (never deletes ${them(moving)}) and forgets ${them(moving)} once ${move.to}'s stack records ${them(moving)}`;
  }
  if (dropped.length > 0) {
    const hooks = list(dropped.map((r) => `${r.hook} (subscription ${r.id})`));
    line += `; ${move.to} does not declare ${hooks}: this ${operation} ${operation === "preview" ? "shows the delete of" : "deletes"} ${them(dropped)}, as of any removed hook`;
  }
  return line;
}

/** How a shop's move out of a stack ended. */
function moveLine(move: MoveResult): string {
  const { shop, from, to, forgotten, waiting } = move;
  const forgot = `${subscriptions(forgotten)} ${forgotten.length === 1 ? "stays" : "stay"} live, now recorded by ${to}'s stack only (${from}'s stack forgot ${them(forgotten)}, nothing deleted)`;
  switch (move.status) {
    case "moved":
      return `[${from}] moved shop ${shop} to ${to}: ${forgot}`;
    case "failed":
      return `[${from}] moving shop ${shop} to ${to} FAILED: ${move.error}; nothing was deleted, and ${from}'s stack still records ${list(waiting)}: run up again`;
    case "planned":
      return `[${from}] shop ${shop} moves to ${to} on the next up`;
    case "waiting":
      return `[${from}] shop ${shop} not moved yet: ${to}'s stack does not record ${list(waiting)} yet, so ${from}'s stack keeps ${them(waiting)} (live, never deleted by ${from}) until an up of ${to} records ${them(waiting)} and ${from} runs again${forgotten.length > 0 ? `; ${forgot}` : ""}`;
  }
}

/**
 * The line(s) printed for a stack's progress, prefixed with its name:
 * `[eu-1] up started: 2 shops, 6 hooks`, `[eu-1] up done in 8.2 s: create 7`,
 * `[eu-2] up FAILED after 5.1 s: <the engine's error> (log: ...)`, `[eu-1] moved shop acme to eu-2: ...`.
 */
export function formatProgress(event: StackProgress): string {
  const prefix = `[${event.stack}] ${event.operation}`;
  switch (event.kind) {
    case "started":
      return `${prefix} started: ${event.shops} shops, ${event.hooks} hooks`;
    case "done":
      return `${prefix} done in ${seconds(event.result.ms)}: ${formatChanges(event.result.changes)}`;
    case "failed":
      return `${prefix} FAILED after ${seconds(event.result.ms)}: ${event.result.error}${event.result.logFile ? ` (log: ${event.result.logFile})` : ""}`;
    case "skipped":
      return `${prefix} skipped: ${event.result.error}`;
    case "moving":
      return event.moves.map((move) => movingLine(prefix, event.operation, move)).join("\n");
    case "move":
      return moveLine(event.move);
  }
}

/** The closing summary: totals, then the failed stacks by name. */
export function formatSummary(result: FleetResult): string {
  const done = result.stacks.filter((s) => s.status === "done").length;
  const failed = result.stacks.filter((s) => s.status === "failed").map((s) => s.stack);
  const skipped = result.stacks.filter((s) => s.status === "skipped").map((s) => s.stack);
  const totals: Record<string, number> = {};
  for (const stack of result.stacks) {
    for (const [op, count] of Object.entries(stack.changes)) totals[op] = (totals[op] ?? 0) + (count ?? 0);
  }
  const lines = [
    `fleet ${result.operation}: ${result.stacks.length} stack${result.stacks.length === 1 ? "" : "s"} in ${seconds(result.ms)} (concurrency ${result.concurrency}): ` +
      `${done} done, ${failed.length} failed, ${skipped.length} skipped; ${formatChanges(totals)}`,
  ];
  const moves = (status: MoveResult["status"]) =>
    list(result.moves.filter((m) => m.status === status).map((m) => `${m.shop} (${m.from} -> ${m.to})`));
  if (moves("moved")) lines.push(`moved: ${moves("moved")}`);
  if (moves("planned")) lines.push(`to move on the next up: ${moves("planned")}`);
  if (moves("waiting"))
    lines.push(`not moved yet (up of the new group, then of the old): ${moves("waiting")}`);
  if (moves("failed")) lines.push(`move FAILED (nothing deleted; run up again): ${moves("failed")}`);
  if (failed.length > 0) lines.push(`failed: ${failed.join(", ")} (see each stack's line above and its log)`);
  if (skipped.length > 0) lines.push(`skipped: ${skipped.join(", ")} (run again to deploy them)`);
  return lines.join("\n");
}
