import * as pulumi from "@pulumi/pulumi";
import { HOOKS, type Hook, isHook } from "../inputs/hooks";
import { callbackUrlProblem } from "../inputs/schemas";
import { programError } from "./programError";
import { isSecretConfig } from "./secretConfig";

/** One hook and the URL it calls, as declared in stack config. */
export interface DeclaredHook {
  readonly hook: Hook;
  /** The URL; a secret output when the config value was set with `pulumi config set --secret`. */
  readonly url: string | pulumi.Output<string>;
  /** Listed in `<namespace>:takeOver`: may overwrite a subscription of the hook made outside the stack. */
  readonly takeOver: boolean;
}

/**
 * Reads `<namespace>:hooks` (hook -> URL) from stack config and reports every bad entry with its config path,
 * for example `from-config:hooks.order_status_change: ... must be lowercase`, so a reviewer editing
 * `Pulumi.<stack>.yaml` sees exactly which line to fix. Throws before any resource is declared.
 *
 * `<namespace>:takeOver` (optional) lists hooks whose resource may overwrite a subscription made outside the
 * stack (the resource's `takeOver` input): `pulumi config set --path '<namespace>:takeOver[0]' <hook>`.
 *
 * When the value is secret (`pulumi config set --secret --path '<namespace>:hooks.<hook>' <url>`, for a URL
 * that carries a token), every URL is returned as a secret output, so it stays encrypted in state and masked
 * in previews, and no message quotes it.
 */
export function hooksFromConfig(config: pulumi.Config): DeclaredHook[] {
  const key = `${config.name}:hooks`;
  const secret = isSecretConfig(key) === true;
  const raw = config.requireObject<unknown>("hooks");
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error(
      `${key} must map hooks to URLs, for example {"order_status_change": "https://hooks.example.com/orders"}`,
    );
  }
  const problems: string[] = [];
  const takeOver = takeOverList(config, raw, problems);
  const hooks: DeclaredHook[] = [];
  for (const [name, url] of Object.entries(raw)) {
    if (!isHook(name)) {
      problems.push(`${key}.${name}: not a hook; use one of ${HOOKS.join(", ")}`);
      continue;
    }
    const problem = typeof url === "string" ? callbackUrlProblem(url, { secret }) : "must be a URL string";
    if (problem !== undefined) problems.push(`${key}.${name}: ${problem}`);
    else
      hooks.push({
        hook: name,
        url: secret ? pulumi.secret(url as string) : (url as string),
        takeOver: takeOver.includes(name),
      });
  }
  // The rule and the config path, not a stack of this package's frames (the host prints an Error's stack).
  if (problems.length > 0) throw programError(`Invalid stack config:\n  ${problems.join("\n  ")}`);
  return hooks;
}

/** The hooks of `<namespace>:takeOver`, each one of `<namespace>:hooks`; a problem for anything else. */
function takeOverList(config: pulumi.Config, hooks: object, problems: string[]): string[] {
  const listed = config.getObject<unknown>("takeOver");
  if (listed === undefined) return [];
  const valid =
    Array.isArray(listed) && listed.every((h) => typeof h === "string" && Object.hasOwn(hooks, h));
  if (valid) return listed as string[];
  problems.push(
    `${config.name}:takeOver: must list hooks of ${config.name}:hooks whose subscription made outside the stack may be overwritten, for example ["order_status_change"]`,
  );
  return [];
}
