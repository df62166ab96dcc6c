import type { Deployment } from "@pulumi/pulumi/automation";
import type { Subscription } from "../../simulator";
import { type Declaration, stateResources, subscriptionResources } from "./engine";

function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function duplicates(values: readonly unknown[]): unknown[] {
  return values.filter((value, i) => values.indexOf(value) !== i);
}

/**
 * Everything that is wrong between what a stack declares, what its state records and what the shop has.
 * Empty when: the shop's subscriptions are exactly the declared ones; every id in state exists with the
 * recorded hook and URL; nothing live is missing from state (no orphan); no hook or id twice; no pending
 * delete or interrupted operation left in state.
 */
export function invariantViolations(
  declared: readonly Declaration[],
  deployment: Deployment,
  live: readonly Subscription[],
): string[] {
  const problems: string[] = [];
  const pendingOps = (deployment.deployment as { pending_operations?: unknown[] }).pending_operations ?? [];
  if (pendingOps.length > 0) problems.push(`${pendingOps.length} pending operation(s) in state`);
  for (const resource of stateResources(deployment)) {
    if ((resource as { delete?: boolean }).delete === true) problems.push(`pending delete: ${resource.urn}`);
  }
  const inState = subscriptionResources(deployment).filter(
    (r) => (r as { delete?: boolean }).delete !== true,
  );
  const liveById = new Map(live.map((s) => [s.id, s]));
  for (const resource of inState) {
    const id = Number(resource.id);
    const found = liveById.get(id);
    const { hook, url, subscriptionId } = resource.outputs;
    if (subscriptionId !== id) problems.push(`${resource.urn}: subscriptionId ${subscriptionId} != id ${id}`);
    if (found === undefined) problems.push(`state id ${id} (${String(hook)}) does not exist`);
    else if (found.hook !== hook || found.url !== url)
      problems.push(
        `state id ${id} records ${String(hook)} ${String(url)}, live is ${found.hook} ${found.url}`,
      );
  }
  const stateIds = new Set(inState.map((r) => Number(r.id)));
  for (const s of live) if (!stateIds.has(s.id)) problems.push(`orphan: ${s.id} ${s.hook} ${s.url}`);
  for (const hook of duplicates(live.map((s) => s.hook)))
    problems.push(`duplicate live hook ${String(hook)}`);
  for (const id of duplicates(inState.map((r) => r.id))) problems.push(`duplicate state id ${String(id)}`);
  for (const d of declared) {
    const matches = live.filter((s) => s.hook === d.hook && s.url === d.url);
    if (matches.length !== 1)
      problems.push(`declared ${d.name} (${d.hook} ${d.url}) live ${matches.length} times`);
    const resource = inState.find((r) => nameOf(r.urn) === d.name);
    if (resource?.outputs.hook !== d.hook || resource.outputs.url !== d.url)
      problems.push(`declared ${d.name} is not recorded in state as ${d.hook} ${d.url}`);
  }
  if (live.length !== declared.length) problems.push(`${live.length} live for ${declared.length} declared`);
  return problems;
}

/** Samples, in this process and every millisecond, `count()` while `run` runs (also when it fails). */
export async function sampled<T>(
  count: () => number,
  run: () => Promise<T>,
): Promise<{ result: T; samples: number[] }> {
  const samples: number[] = [count()];
  const sampler = setInterval(() => samples.push(count()), 1);
  try {
    const result = await run();
    samples.push(count());
    return { result, samples };
  } finally {
    clearInterval(sampler);
  }
}
