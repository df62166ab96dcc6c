/**
 * Engine operations of the explorer: the real Pulumi CLI through the Automation API (inline programs,
 * `file://` backend), each under a deadline, plus a SIGKILL of the CLI in the middle of an `up`.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LocalWorkspace, OutputMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { openStack, withDeadline } from "../lib/stacks";
import type { Operation } from "./model";

const execFileAsync = promisify(execFile);

/** Deadline of one engine operation: generous for a loaded machine, finite so a run never hangs. */
export const OPERATION_DEADLINE_MS = 150_000;
/** Largest `stack export` the explorer reads, bytes. */
const EXPORT_MAX_BYTES = 64 * 1024 * 1024;
/** How often the kill step polls for the first write of the `up` it interrupts. */
const KILL_POLL_MS = 10;
/** How long the kill step waits for that first write before letting the `up` finish. */
const KILL_WAIT_MS = 60_000;

/** How an operation ended. */
export interface OperationResult {
  readonly ok: boolean;
  /** The error (when it failed) followed by everything the CLI printed. */
  readonly text: string;
  /** Stack outputs of a successful `up`. */
  readonly outputs: OutputMap;
}

/** One stack of an exploration. */
export interface ExplorerStack {
  readonly stack: Stack;
  /** Replaces the CLI's (and so the provider's) environment for the next operations. */
  setEnv(env: Record<string, string>): void;
}

/** Opens (creating) `stackName` of the inline `program` in `workDir`, state in `backendDir`. */
export async function openExplorerStack(
  dirs: { workDir: string; backendDir: string; pulumiHome: string },
  projectName: string,
  stackName: string,
  program: PulumiFn,
): Promise<ExplorerStack> {
  const base = { PULUMI_HOME: dirs.pulumiHome };
  const stack = await withDeadline(
    openStack({
      workDir: dirs.workDir,
      backendDir: dirs.backendDir,
      projectName,
      stackName,
      program,
      env: base,
    }),
    OPERATION_DEADLINE_MS,
    `open stack ${stackName}`,
  );
  const workspace = stack.workspace as LocalWorkspace;
  const fixed = { ...workspace.envVars };
  return {
    stack,
    setEnv(env) {
      for (const key of Object.keys(workspace.envVars)) delete workspace.envVars[key];
      Object.assign(workspace.envVars, fixed, env);
    },
  };
}

/** Options of a targeted operation: URNs for `--target` / `--exclude`, and `--target-dependents`. */
interface TargetOptions {
  readonly target?: string[];
  readonly targetDependents?: boolean;
  readonly exclude?: string[];
}

/**
 * Runs `op` on `stack` under {@link OPERATION_DEADLINE_MS}, targeted by `targeting` (for up, refresh and
 * destroy; @pulumi/pulumi 3.248 passes them as `--target`, `--target-dependents`, `--exclude`); never throws.
 */
export async function runOperation(
  stack: Stack,
  op: Operation,
  targeting: TargetOptions = {},
): Promise<OperationResult> {
  let printed = "";
  const onOutput = (out: string) => {
    printed += out;
  };
  const what = `pulumi ${op} of stack ${stack.name}`;
  try {
    let outputs: OutputMap = {};
    if (op === "preview") await withDeadline(stack.preview({ onOutput }), OPERATION_DEADLINE_MS, what);
    else if (op === "up" || op === "upRefresh" || op === "upContinue") {
      const result = await withDeadline(
        stack.up({
          onOutput,
          ...targeting,
          ...(op === "upRefresh" ? { refresh: true } : {}),
          ...(op === "upContinue" ? { continueOnError: true } : {}),
        }),
        OPERATION_DEADLINE_MS,
        what,
      );
      outputs = result.outputs;
    } else if (op === "refresh")
      await withDeadline(stack.refresh({ onOutput, ...targeting }), OPERATION_DEADLINE_MS, what);
    else {
      await withDeadline(
        stack.destroy({ onOutput, ...targeting, ...(op === "destroyRefresh" ? { refresh: true } : {}) }),
        OPERATION_DEADLINE_MS,
        what,
      );
    }
    return { ok: true, text: printed, outputs };
  } catch (error) {
    return { ok: false, text: `${String(error)}\n${printed}`, outputs: {} };
  }
}

/**
 * `pulumi stack export` without `--show-secrets`, as a user would read it (the Automation API's
 * `exportStack()` passes `--show-secrets`).
 */
export async function plainExport(stack: Stack): Promise<string> {
  const workspace = stack.workspace as LocalWorkspace;
  const { stdout } = await execFileAsync(
    workspace.pulumiCommand.command,
    ["stack", "export", "--stack", stack.name, "--non-interactive"],
    {
      cwd: workspace.workDir,
      env: { ...process.env, ...workspace.envVars },
      timeout: OPERATION_DEADLINE_MS,
      maxBuffer: EXPORT_MAX_BYTES,
    },
  );
  return stdout;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (text !== "") children.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // the process ended meanwhile
  }
  return children;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Our child processes that are the Pulumi CLI (`<root>/bin/pulumi`), with all their descendants. */
function cliProcessTrees(cliBin: string): number[] {
  const trees: number[] = [];
  for (const pid of childrenOf(process.pid)) {
    if (!commandLine(pid).startsWith(cliBin)) continue;
    const pending = [pid];
    while (pending.length > 0) {
      const next = pending.pop() as number;
      trees.push(next);
      pending.push(...childrenOf(next));
    }
  }
  return trees;
}

/**
 * Starts `up`, waits until `written()` says the services saw a write of it, then SIGKILLs the CLI and every
 * process it started (by pid). Answers whether the kill happened (the `up` may finish before any write).
 */
export async function killDuringUp(
  stack: Stack,
  cliRoot: string,
  written: () => boolean,
): Promise<{ killed: boolean; result: OperationResult }> {
  let settled = false;
  const running = runOperation(stack, "up").finally(() => {
    settled = true;
  });
  const deadline = Date.now() + KILL_WAIT_MS;
  while (!settled && !written() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, KILL_POLL_MS));
  }
  let killed = false;
  if (!settled) {
    for (const pid of cliProcessTrees(join(cliRoot, "bin", "pulumi"))) {
      try {
        process.kill(pid, "SIGKILL");
        killed = true;
      } catch {
        // already gone
      }
    }
  }
  return { killed, result: await running };
}
