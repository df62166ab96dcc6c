/**
 * The invariants that need no ownership history: declared hooks live after a sync, secrets at rest and in
 * outputs, and failures that say why, naming the resource.
 */
import type { OutputMap } from "@pulumi/pulumi/automation";
import type { Snapshot, StateRecord } from "./ledger";
import {
  callbackUrl,
  type ResourceDecl,
  resourceShop,
  SECRET_URLS,
  SHOP_KEYS,
  type StackDecl,
} from "./model";
import { filesUnder } from "./stateFiles";

/** Invariant 1: every declared hook is live with its declared URL, and the state's id is the live id. */
export function declaredHooksLive(
  decl: StackDecl,
  records: readonly StateRecord[],
  live: Snapshot,
): string[] {
  const problems: string[] = [];
  for (const resource of decl.resources) {
    const shop = resourceShop(decl, resource);
    const record = records.find((r) => r.name === resource.name);
    const wanted = resource.ignoreUrl && record !== undefined ? record.url : declaredUrl(resource);
    const sub = (live.get(shop) ?? []).find((s) => s.hook === resource.hook);
    if (sub === undefined) {
      problems.push(`${resource.name}: ${shop} has no ${resource.hook} subscription after a successful sync`);
    } else if (sub.url !== wanted) {
      problems.push(`${resource.name}: ${shop} ${resource.hook} calls ${sub.url}, declared ${wanted}`);
    }
    if (record === undefined) problems.push(`${resource.name}: not in state after a successful sync`);
    else if (
      sub !== undefined &&
      (record.id !== sub.id || record.url !== sub.url || record.hook !== sub.hook)
    ) {
      problems.push(
        `${resource.name}: state records id ${record.id} ${record.hook} ${record.url}, live is id ${sub.id} ${sub.hook} ${sub.url}`,
      );
    }
  }
  return problems;
}

/** The URL a resource declares. */
export function declaredUrl(resource: ResourceDecl): string {
  return callbackUrl(resource.url, resource.secret);
}

/** Every text that must never be seen in plain: secret URLs (by their token), API keys, raw and base64. */
function secretNeedles(): Array<{ needle: string; what: string }> {
  const needles = SECRET_URLS.map((url) => ({
    needle: new URL(url).searchParams.get("token") ?? url,
    what: url,
  }));
  for (const { key } of Object.values(SHOP_KEYS)) {
    needles.push({ needle: key, what: "an API key" });
    needles.push({ needle: Buffer.from(key).toString("base64"), what: "an API key (base64)" });
  }
  return needles;
}

/** Invariant 4, at rest: no secret in any file of the backend (stack file, .bak, backups, history). */
export function secretsAtRest(backendDir: string): string[] {
  const problems: string[] = [];
  const needles = secretNeedles();
  for (const file of filesUnder(backendDir)) {
    for (const { needle, what } of needles) {
      if (file.text.includes(needle))
        problems.push(`${what} in plain text in ${file.path.slice(backendDir.length + 1)}`);
    }
  }
  return problems;
}

/**
 * Invariant 4, in stack config: no secret in plain text in the project's `Pulumi.<stack>.yaml` files (a URL
 * set with `pulumi config set --secret` is stored encrypted there).
 */
export function secretsInStackConfig(projectDir: string): string[] {
  const problems: string[] = [];
  for (const file of filesUnder(projectDir, /^Pulumi\..+\.yaml$/)) {
    problems.push(...secretsIn(file.text, `stack config ${file.path.slice(projectDir.length + 1)}`));
  }
  return problems;
}

/** Invariant 4, in a text: a plain `stack export`, or what the CLI printed. */
export function secretsIn(text: string, where: string): string[] {
  return secretNeedles()
    .filter(({ needle }) => text.includes(needle))
    .map(({ what }) => `${what} in plain text in ${where}`);
}

/** Invariant 4, in outputs: no output that is not marked secret holds a secret. */
export function secretsInOutputs(outputs: OutputMap): string[] {
  const problems: string[] = [];
  for (const [name, output] of Object.entries(outputs)) {
    if (output.secret) continue;
    problems.push(
      ...secretsIn(JSON.stringify(output.value) ?? "", `stack output ${name} (not marked secret)`),
    );
  }
  return problems;
}

/** The blocks of the CLI's "Diagnostics:" section (a resource header and its indented lines). */
function diagnosticBlocks(printed: string): string[] {
  const start = printed.indexOf("Diagnostics:");
  if (start < 0) return [];
  const blocks: string[] = [];
  for (const line of printed.slice(start).split("\n").slice(1)) {
    if (/^ {2}\S/.test(line)) blocks.push(line);
    else if (/^ {4}/.test(line) && blocks.length > 0) blocks[blocks.length - 1] += `\n${line}`;
    else if (/^\S/.test(line)) break;
  }
  return blocks;
}

/** The error messages of a failed operation: diagnostic blocks with an error, and `error:` lines. */
export function errorMessages(text: string): string[] {
  const blocks = diagnosticBlocks(text).filter((b) => b.includes("error:"));
  const lines = text
    .split("\n")
    .filter((l) => /^error: /.test(l) && !/^error: (update|preview|refresh|destroy) failed/.test(l));
  return [...blocks, ...lines];
}

/** The first error message of a failed operation, on one line (for reports). */
export function firstError(text: string): string {
  const messages = errorMessages(text);
  // The stack's own "update failed" says nothing: a resource's error first.
  const telling = messages.find((m) => !/error: (update|preview|refresh|destroy) failed\s*$/.test(m));
  const message =
    telling ?? messages[0] ?? text.split("\n").find((l) => l.includes("error")) ?? text.split("\n")[0] ?? "";
  return message.replace(/\s+/g, " ").trim().slice(0, 400);
}

/**
 * Invariant 6: a failed operation reports an error (a diagnostic or an `error:` line) that names one of
 * `names` (a resource of the stack) and says why; `reason`, when given, must also be in it.
 */
export function failureSaysWhy(text: string, names: readonly string[], reason?: RegExp): string[] {
  const naming = errorMessages(text).filter((m) => names.some((n) => m.includes(n)));
  if (naming.length === 0) {
    return [`failed without an error that names a resource (${names.join(", ")}): ${firstError(text)}`];
  }
  if (reason !== undefined && !naming.some((m) => reason.test(m))) {
    return [`failed, but the error does not say ${reason}: ${firstError(text)}`];
  }
  return [];
}
