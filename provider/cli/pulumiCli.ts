/**
 * Reads a stack's config and state by running the official `pulumi` CLI in the project folder, as the user
 * would. No Pulumi import: the command must start fast.
 */
import { spawn } from "node:child_process";
import type { PulumiProject } from "./project";
import {
  parseConfigJson,
  parseStackExport,
  parseStackList,
  redact,
  type StackConfig,
  StackReadError,
  type StackRecord,
} from "./stackState";

/** One `pulumi` command that runs no program (config, stack export), on a loaded machine or a slow backend. */
const PULUMI_DEADLINE_MS = 120_000;
/** How much of the CLI's error output a message quotes. */
const QUOTED_STDERR_CHARS = 600;
const INSTALL_URL = "https://www.pulumi.com/docs/install/";

/** The stack `export` read: its name, its config, and the subscriptions it records. */
export interface StackContext {
  readonly stack: string;
  readonly config: StackConfig;
  readonly records: readonly StackRecord[];
}

/** What `export` reads in a project folder: a stack, or (no stack yet) nothing, with why. */
type ProjectRead =
  | { readonly kind: "stack"; readonly context: StackContext }
  | { readonly kind: "noStack"; readonly note: string };

interface Run {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** How the messages name the stack: `--stack dev`, or `stack dev (selected)`. */
  readonly subject: string;
  /** Values to redact from the CLI's error output. */
  readonly secrets: readonly string[];
}

/** Runs `pulumi <args>` and returns what it printed on stdout; throws {@link StackReadError} with the fix. */
function runPulumi(args: readonly string[], run: Run): Promise<string> {
  const command = `pulumi ${args.join(" ")}`;
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", ["--non-interactive", ...args], {
      cwd: run.cwd,
      env: { ...run.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-QUOTED_STDERR_CHARS * 4);
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      reject(
        new StackReadError(
          `${run.subject}: \`${command}\` did not finish within ${PULUMI_DEADLINE_MS / 1000} s. Run it in this folder to see where it waits (a backend login, a lock), then run export again`,
        ),
      );
    }, PULUMI_DEADLINE_MS);
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === "ENOENT"
          ? new StackReadError(
              `the Pulumi CLI (pulumi) is not on PATH, and in a project folder (${run.cwd}) export reads ${run.subject.replace(/^--stack /, "stack ")}'s config and state through it. Install it (${INSTALL_URL}) or add its folder to PATH; outside a project folder export reads only the SHIPPING_* environment`,
            )
          : new StackReadError(`${run.subject}: \`${command}\` could not start: ${error.message}`),
      );
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      if (status === 0) {
        resolve(Buffer.concat(stdout).toString("utf8"));
        return;
      }
      const said = redact(stderr.trim(), run.secrets).slice(-QUOTED_STDERR_CHARS);
      reject(
        new StackReadError(
          `${run.subject}: \`${command}\` failed (exit ${status ?? signal})${said === "" ? "" : `: ${said}`}. Check the stack's name (\`pulumi stack ls\`), the backend login and PULUMI_CONFIG_PASSPHRASE, then run export again`,
        ),
      );
    });
  });
}

/**
 * Reads `stack` (absent: the project's selected stack) through the `pulumi` CLI in `cwd`: its config, with
 * secrets shown (kept in memory, never printed), and the WebhookSubscriptions its state records. A project
 * with no stack at all reads nothing (export then uses the environment, as outside a project).
 */
export async function readProjectStack(
  project: PulumiProject,
  stack: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<ProjectRead> {
  let name = stack;
  if (name === undefined) {
    const run: Run = { cwd, env, subject: `project ${project.name}`, secrets: [] };
    const list = parseStackList(await runPulumi(["stack", "ls", "--json"], run), "pulumi stack ls --json");
    if (list.current === undefined && list.names.length === 0) {
      return {
        kind: "noStack",
        note: `project ${project.name} has no stack yet: read the SHIPPING_* environment only (\`--stack <name>\` reads a stack's config and leaves out what it records)`,
      };
    }
    if (list.current === undefined) {
      throw new StackReadError(
        `project ${project.name}: no stack is selected (stacks: ${list.names.join(", ")}), so export cannot tell whose config to read and what to leave out. Pass --stack <name>, or run \`pulumi stack select <name>\``,
      );
    }
    name = list.current;
  }
  const subject = stack !== undefined ? `--stack ${stack}` : `stack ${name} (selected)`;
  const configArgs = ["config", "--json", "--show-secrets", "--stack", name];
  const exportArgs = ["stack", "export", "--stack", name];
  // Both at once; a failure of the export is quoted only once the config's secrets are known to redact.
  const exported = runPulumi(exportArgs, { cwd, env, subject, secrets: [] }).then(
    (text) => ({ text }),
    (error: unknown) => ({ error }),
  );
  const configText = await runPulumi(configArgs, { cwd, env, subject, secrets: [] });
  const config = parseConfigJson(configText, `pulumi ${configArgs.join(" ")}`);
  const state = await exported;
  if ("error" in state) {
    const message = state.error instanceof Error ? state.error.message : String(state.error);
    throw new StackReadError(redact(message, config.secrets));
  }
  return {
    kind: "stack",
    context: { stack: name, config, records: parseStackExport(state.text, `pulumi ${exportArgs.join(" ")}`) },
  };
}
