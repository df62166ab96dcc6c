import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  LocalWorkspace,
  type LocalWorkspaceOptions,
  type OpMap,
  PulumiCommand,
  type Stack,
  StackNotFoundError,
} from "@pulumi/pulumi/automation";
import { ISOLATION_UNAVAILABLE, isolateInlineProgramConnections } from "pulumi-shipping-webhooks";
import type { Fleet, FleetGroup } from "./fleet";
import { CredentialsError, groupShopsValue, readShopKeys, SHOPS_ENV } from "./keys";
import { mapWithConcurrency } from "./pool";
import { groupProgram } from "./program";

/** What the runner does to each stack. */
export type FleetOperation = "up" | "preview" | "destroy";

/** The operations, for argument checks. */
export const FLEET_OPERATIONS: readonly FleetOperation[] = ["up", "preview", "destroy"];

/** How to run one operation over a fleet. */
export interface FleetRunOptions {
  readonly fleet: Fleet;
  readonly operation: FleetOperation;
  /** Most stacks running at once. */
  readonly concurrency: number;
  /**
   * Folder of the stacks' project folders (`<workRoot>/<stack>/`, each with its Pulumi.yaml and a log per
   * operation). The Pulumi engine starts the provider there, so `pulumi-shipping-webhooks` must resolve from
   * it: keep it inside the project that installed the package.
   */
  readonly workRoot: string;
  /** Backend of every stack (`file://...`, `s3://...`); undefined: the CLI's login (e.g. Pulumi Cloud). */
  readonly backendUrl?: string;
  /** Environment with `SHIPPING_SHOPS` and `PULUMI_CONFIG_PASSPHRASE`; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Only these groups (stack names); default every group of the fleet. */
  readonly only?: readonly string[];
  /** The engine's `--parallel` within each stack; default the engine's. */
  readonly parallel?: number;
  /** Refresh each stack before the operation (`--refresh`). */
  readonly refresh?: boolean;
  /** A stack still running after this many ms is cancelled and reported failed. */
  readonly stackTimeoutMs?: number;
  /** The Pulumi CLI; default `pulumi` on PATH. */
  readonly pulumiCommand?: PulumiCommand;
  /** Aborting stops starting stacks and cancels the running ones (as Ctrl-C does). */
  readonly signal?: AbortSignal;
  /** Called when a stack starts, ends or is skipped. */
  readonly onProgress?: (event: StackProgress) => void;
}

/** One stack's progress: the line the runner prints. */
export type StackProgress =
  | {
      readonly kind: "started";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly shops: number;
      readonly hooks: number;
    }
  | {
      readonly kind: "done";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly result: StackResult;
    }
  | {
      readonly kind: "failed";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly result: StackResult;
    }
  | {
      readonly kind: "skipped";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly result: StackResult;
    };

/** How one stack ended. */
export interface StackResult {
  readonly stack: string;
  readonly status: "done" | "failed" | "skipped";
  /** Wall time of the operation, including the CLI's start. */
  readonly ms: number;
  /** The engine's resource changes by kind (`create`, `same`, `update`, `delete`, `replace`, ...). */
  readonly changes: OpMap;
  /** Why it failed or was skipped: the engine's error lines, or the runner's own check. */
  readonly error?: string;
  /** The operation's full output. */
  readonly logFile?: string;
}

/** How a run over the fleet ended. */
export interface FleetResult {
  readonly operation: FleetOperation;
  readonly concurrency: number;
  readonly ms: number;
  readonly stacks: readonly StackResult[];
  /** Names of the stacks that failed or were skipped: the run failed when any is listed. */
  readonly failed: readonly string[];
}

/** A run that cannot start (bad option, no passphrase, unreadable keys); nothing was deployed. */
export class FleetConfigError extends Error {
  override readonly name = "FleetConfigError";
}

/** Engine errors that only say that others happened. */
const GENERIC_ERROR = /^error: (update|preview|destroy|refresh) failed$/i;
/** Longest error text in a progress line; the log has the rest. */
const ERROR_TEXT_LIMIT = 600;

/**
 * The errors of the engine's "Diagnostics:" section as `<resource name>: <message>`, generic ones left out.
 */
function diagnostics(text: string): string[] {
  const start = text.indexOf("\nDiagnostics:\n");
  if (start < 0) return [];
  const found: string[] = [];
  let resource = "";
  for (const line of text
    .slice(start + 1)
    .split("\n")
    .slice(1)) {
    if (/^\S/.test(line)) break; // the next section (Resources:, Duration:, ...)
    const header = /^ {2}\S+ \((.+)\):$/.exec(line);
    if (header) resource = header[1] as string;
    const error = /^\s+(error: .*)$/.exec(line);
    if (error && !GENERIC_ERROR.test(error[1] as string)) {
      found.push(`${resource}: ${(error[1] as string).slice("error: ".length)}`);
    }
  }
  return found;
}

/**
 * What went wrong, in one line: the first resource error of the engine's diagnostics (and how many more), else
 * the error lines of the output, else the error's first lines.
 */
export function errorSummary(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const resources = diagnostics(text);
  let summary: string;
  if (resources.length > 0) {
    summary = resources[0] as string;
    if (resources.length > 1) summary += ` (and ${resources.length - 1} more resource error(s))`;
  } else {
    const lines = text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /\berror:/i.test(line) && !GENERIC_ERROR.test(line));
    summary = lines.length > 0 ? (lines[0] as string) : text.trim().split("\n").slice(0, 3).join(" ");
  }
  return summary.length > ERROR_TEXT_LIMIT ? `${summary.slice(0, ERROR_TEXT_LIMIT)}...` : summary;
}

function changesOf(changes: OpMap | undefined): OpMap {
  return Object.fromEntries(Object.entries(changes ?? {}).filter(([, count]) => (count ?? 0) > 0));
}

/** Checks what every stack needs before any starts, so a misconfigured run fails at once and deploys nothing. */
function checkRun(options: FleetRunOptions, env: NodeJS.ProcessEnv): FleetGroup[] {
  const { fleet, only, backendUrl } = options;
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new FleetConfigError(
      `--concurrency must be a whole number of at least 1, got ${options.concurrency}`,
    );
  }
  const known = new Set(fleet.groups.map((g) => g.stack));
  const unknown = (only ?? []).filter((stack) => !known.has(stack));
  if (unknown.length > 0) {
    throw new FleetConfigError(
      `--stack ${unknown.join(", ")}: no such group in the fleet file; groups: ${[...known].join(", ")}`,
    );
  }
  const cloud = backendUrl === undefined || /^https?:\/\//.test(backendUrl);
  if (!cloud && !env.PULUMI_CONFIG_PASSPHRASE && !env.PULUMI_CONFIG_PASSPHRASE_FILE) {
    throw new FleetConfigError(
      "PULUMI_CONFIG_PASSPHRASE is not set: with a file or S3 backend it encrypts each stack's secret outputs. " +
        "Set it (a CI secret) or PULUMI_CONFIG_PASSPHRASE_FILE.",
    );
  }
  const backendPath = backendUrl?.startsWith("file:///")
    ? backendUrl.slice("file://".length).split("?")[0]
    : "";
  if (backendPath) {
    // The CLI refuses a file backend whose folder does not exist yet (e.g. the default .pulumi-state).
    mkdirSync(decodeURIComponent(backendPath), { recursive: true });
  }
  try {
    readShopKeys(env);
  } catch (error) {
    throw new FleetConfigError((error as Error).message);
  }
  return fleet.groups.filter(
    (group) => only === undefined || only.length === 0 || only.includes(group.stack),
  );
}

/** The environment of one stack's CLI and provider: only its own shops' keys. */
function stackEnv(
  options: FleetRunOptions,
  env: NodeJS.ProcessEnv,
  group: FleetGroup,
): Record<string, string> {
  const vars: Record<string, string> = {};
  if (env !== process.env) {
    for (const [name, value] of Object.entries(env)) if (value !== undefined) vars[name] = value;
  }
  vars[SHOPS_ENV] = groupShopsValue(group, readShopKeys(env));
  if (options.fleet.baseUrl !== undefined) vars.SHIPPING_BASE_URL = options.fleet.baseUrl;
  vars.PULUMI_SKIP_UPDATE_CHECK = "true";
  return vars;
}

async function openStack(
  options: FleetRunOptions,
  group: FleetGroup,
  workDir: string,
  envVars: Record<string, string>,
): Promise<Stack | undefined> {
  const { fleet, backendUrl, pulumiCommand } = options;
  const args = { stackName: group.stack, projectName: fleet.project, program: groupProgram(group) };
  const workspace: LocalWorkspaceOptions = {
    workDir,
    envVars,
    projectSettings: {
      name: fleet.project,
      runtime: "nodejs",
      ...(backendUrl !== undefined ? { backend: { url: backendUrl } } : {}),
    },
    ...(pulumiCommand !== undefined ? { pulumiCommand } : {}),
  };
  if (options.operation !== "destroy") return LocalWorkspace.createOrSelectStack(args, workspace);
  try {
    return await LocalWorkspace.selectStack(args, workspace);
  } catch (error) {
    if (error instanceof StackNotFoundError) return undefined; // never deployed: nothing to destroy
    throw error;
  }
}

async function runStack(
  options: FleetRunOptions,
  env: NodeJS.ProcessEnv,
  group: FleetGroup,
  emit: (event: StackProgress) => void,
): Promise<StackResult> {
  const { operation } = options;
  const started = performance.now();
  const workDir = join(options.workRoot, group.stack);
  const logFile = join(workDir, `${operation}.log`);
  let log = "";
  emit({
    kind: "started",
    stack: group.stack,
    operation,
    shops: group.shops.length,
    hooks: group.shops.reduce((sum, shop) => sum + shop.hooks.length, 0),
  });
  const signals = [
    options.signal,
    options.stackTimeoutMs ? AbortSignal.timeout(options.stackTimeoutMs) : undefined,
  ];
  const active = signals.filter((s): s is AbortSignal => s !== undefined);
  const signal = active.length > 0 ? AbortSignal.any(active) : undefined;
  try {
    mkdirSync(workDir, { recursive: true });
    const stack = await openStack(options, group, workDir, stackEnv(options, env, group));
    const common = {
      onOutput: (out: string) => {
        log += out;
      },
      ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
      ...(options.refresh ? { refresh: true } : {}),
      ...(signal !== undefined ? { signal } : {}),
    };
    let changes: OpMap | undefined;
    if (stack === undefined) log += `Stack ${group.stack} does not exist: nothing to destroy.\n`;
    else if (operation === "up") changes = (await stack.up(common)).summary.resourceChanges;
    else if (operation === "preview") changes = (await stack.preview(common)).changeSummary;
    else changes = (await stack.destroy(common)).summary.resourceChanges;
    const result: StackResult = {
      stack: group.stack,
      status: "done",
      ms: performance.now() - started,
      changes: changesOf(changes),
      logFile,
    };
    emit({ kind: "done", stack: group.stack, operation, result });
    return result;
  } catch (error) {
    log += `\n${error instanceof Error ? error.message : String(error)}\n`;
    const cancelled = signal?.aborted
      ? options.signal?.aborted
        ? "cancelled (interrupted): "
        : `cancelled after --stack-timeout (${Math.round((options.stackTimeoutMs ?? 0) / 1000)} s): `
      : "";
    const result: StackResult = {
      stack: group.stack,
      status: "failed",
      ms: performance.now() - started,
      changes: {},
      error: error instanceof CredentialsError ? error.message : `${cancelled}${errorSummary(error)}`,
      logFile,
    };
    emit({ kind: "failed", stack: group.stack, operation, result });
    return result;
  } finally {
    try {
      writeFileSync(logFile, log);
    } catch {
      // The folder could not be made; the error above says why.
    }
  }
}

/**
 * Runs `operation` on every stack of the fleet (or those in `only`), at most `concurrency` at once, each a
 * Pulumi stack of its own (own state, own lock) from an inline program. Never throws for a stack's failure:
 * that stack is reported failed and the others go on. Throws {@link FleetConfigError} before starting anything
 * when the run cannot work at all.
 */
export async function runFleet(options: FleetRunOptions): Promise<FleetResult> {
  const env = options.env ?? process.env;
  const groups = checkRun(options, env);
  // Many inline programs in one process: each must reach its own engine (see the function's comment).
  if (!isolateInlineProgramConnections()) console.warn(ISOLATION_UNAVAILABLE);
  // One CLI for every stack, found (and its version checked) once rather than per stack.
  let pulumiCommand = options.pulumiCommand;
  if (pulumiCommand === undefined) {
    try {
      pulumiCommand = await PulumiCommand.get();
    } catch (error) {
      const message = (error as Error).message;
      const detail = /stderr: (.+)/.exec(message)?.[1] ?? message.split("\n")[0];
      throw new FleetConfigError(
        `No usable Pulumi CLI on PATH (${detail}): install it (https://www.pulumi.com/docs/install/) and put its folder on PATH`,
      );
    }
  }
  const run: FleetRunOptions = { ...options, pulumiCommand };
  const emit = options.onProgress ?? (() => undefined);
  const started = performance.now();
  const stacks = await mapWithConcurrency(
    groups,
    options.concurrency,
    (group) => runStack(run, env, group, emit),
    (group) => {
      const result: StackResult = {
        stack: group.stack,
        status: "skipped",
        ms: 0,
        changes: {},
        error: "not started: the run was interrupted",
      };
      emit({ kind: "skipped", stack: group.stack, operation: options.operation, result });
      return result;
    },
    options.signal,
  );
  return {
    operation: options.operation,
    concurrency: options.concurrency,
    ms: performance.now() - started,
    stacks,
    failed: stacks.filter((s) => s.status !== "done").map((s) => s.stack),
  };
}
