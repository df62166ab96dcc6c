import type * as pulumi from "@pulumi/pulumi";
import { HOOKS, type Hook, isHook } from "./hooks";
import { callbackUrlProblem } from "./schemas";

/** One hook and the URL it calls, as declared in stack config. */
export interface DeclaredHook {
  readonly hook: Hook;
  readonly url: string;
}

/**
 * Reads `<namespace>:hooks` (hook -> URL) from stack config and reports every bad entry with its config path,
 * for example `from-config:hooks.order_status_change: ... must be lowercase`, so a reviewer editing
 * `Pulumi.<stack>.yaml` sees exactly which line to fix. Throws before any resource is declared.
 */
export function hooksFromConfig(config: pulumi.Config): DeclaredHook[] {
  const key = `${config.name}:hooks`;
  const raw = config.requireObject<unknown>("hooks");
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error(
      `${key} must map hooks to URLs, for example {"order_status_change": "https://hooks.example.com/orders"}`,
    );
  }
  const problems: string[] = [];
  const hooks: DeclaredHook[] = [];
  for (const [name, url] of Object.entries(raw)) {
    if (!isHook(name)) {
      problems.push(`${key}.${name}: not a hook; use one of ${HOOKS.join(", ")}`);
      continue;
    }
    const problem = typeof url === "string" ? callbackUrlProblem(url) : "must be a URL string";
    if (problem !== undefined) problems.push(`${key}.${name}: ${problem}`);
    else hooks.push({ hook: name, url: url as string });
  }
  if (problems.length > 0) throw new Error(`Invalid stack config:\n  ${problems.join("\n  ")}`);
  return hooks;
}
