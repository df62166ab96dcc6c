import type { OpMap } from "@pulumi/pulumi/automation";
import type { FleetResult, StackProgress } from "./runner";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `create 10, same 2`, or `no changes` when the engine reported none. */
export function formatChanges(changes: OpMap): string {
  const entries = Object.entries(changes).filter(([, count]) => (count ?? 0) > 0);
  return entries.length === 0 ? "no changes" : entries.map(([op, count]) => `${op} ${count}`).join(", ");
}

/**
 * The one line printed for a stack's progress, prefixed with its name:
 * `[eu-1] up started: 2 shops, 6 hooks`, `[eu-1] up done in 8.2 s: create 7`,
 * `[eu-2] up FAILED after 5.1 s: <the engine's error> (log: ...)`.
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
  if (failed.length > 0) lines.push(`failed: ${failed.join(", ")} (see each stack's line above and its log)`);
  if (skipped.length > 0) lines.push(`skipped: ${skipped.join(", ")} (run again to deploy them)`);
  return lines.join("\n");
}
