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
import { errorSummary } from "./errors";
import type { FleetGroup } from "./fleet";
import { handOver, type MoveLedger, newLedger, prepareMoves } from "./handoff";
import { CredentialsError, groupShopsValue, readShopKeys, SHOPS_ENV } from "./keys";
import { mapWithConcurrency } from "./pool";
import { groupProgram } from "./program";
import {
  FleetConfigError,
  type FleetResult,
  type FleetRunOptions,
  type StackProgress,
  type StackResult,
} from "./types";

export {
  FLEET_OPERATIONS,
  FleetConfigError,
  type FleetOperation,
  type FleetResult,
  type FleetRunOptions,
  type StackProgress,
  type StackResult,
} from "./types";

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
  ledger: MoveLedger,
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
    const exclude =
      stack === undefined ? [] : await prepareMoves(options, env, group, stack, ledger, emit, signal);
    const common = {
      onOutput: (out: string) => {
        log += out;
      },
      ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
      ...(options.refresh ? { refresh: true } : {}),
      ...(exclude.length > 0 ? { exclude } : {}),
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
  const ledger = newLedger();
  const stacks = await mapWithConcurrency(
    groups,
    options.concurrency,
    (group) => runStack(run, env, group, emit, ledger),
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
  const moves = await handOver(ledger, run, emit);
  const failedMoves = moves.filter((move) => move.status === "failed").map((move) => move.from);
  return {
    operation: options.operation,
    concurrency: options.concurrency,
    ms: performance.now() - started,
    stacks,
    moves,
    failed: [...new Set([...stacks.filter((s) => s.status !== "done").map((s) => s.stack), ...failedMoves])],
  };
}
