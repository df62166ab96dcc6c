import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { dist, REPO_ROOT } from "./engine";
import { type ProcessResult, runOk, runProcess } from "./process";

/** The built adoption CLI (tests load compiled code only). */
export const CLI_PATH = join(REPO_ROOT, "dist", "provider", "cli", "index.js");

/** Deadline of one CLI run: it makes one GET (and in a project runs `pulumi` twice), on a loaded machine. */
const CLI_DEADLINE_MS = 120_000;
/** Deadline of one `pulumi` command that runs no program (stack init, config set). */
const PULUMI_DEADLINE_MS = 120_000;

/**
 * A folder outside any Pulumi project (the repository's root is one): there `export` reads the environment
 * only. Removed by {@link removeScratch}.
 */
export const SCRATCH = mkdtempSync(join(tmpdir(), "shipping-export-cli-"));

/** Removes the folders the CLI tests made. */
export function removeScratch(): void {
  rmSync(SCRATCH, { recursive: true, force: true });
}

/**
 * Runs `node dist/provider/cli/index.js ...args` in `cwd` (by default outside any project) with only `env`
 * set (plus PATH unless `env` sets it), so that no SHIPPING_* or PULUMI_* variable of the shell leaks in.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd: string = SCRATCH,
): Promise<ProcessResult> {
  return runProcess(process.execPath, [CLI_PATH, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    deadlineMs: CLI_DEADLINE_MS,
  });
}

/** A Pulumi project folder with stacks on a file backend of its own, handled by the real CLI. */
interface StackProject {
  readonly dir: string;
  /** PATH with the official CLI first, PULUMI_HOME, the backend, the passphrase: what `export` runs with. */
  readonly env: Record<string, string>;
  /** Runs `pulumi <args>` in the project folder; fails with the CLI's output unless it exits 0. */
  pulumi(args: readonly string[]): Promise<ProcessResult>;
}

/**
 * Lays out a project named `name` (Pulumi.yaml and an `index.ts`, never run: `pulumi config` and `stack
 * export` need no program) under {@link SCRATCH}, with the CLI `npm test` chose.
 */
export function stackProject(name: string, program = ""): StackProject {
  const base = mkdtempSync(join(SCRATCH, `${name}-`));
  const dir = join(base, "project");
  for (const folder of [dir, join(base, "backend"), join(base, "home")])
    mkdirSync(folder, { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  writeFileSync(join(dir, "index.ts"), program);
  const cli = dist.pulumiCli.requirePulumiCli();
  const env = {
    PATH: [dirname(cli.binary), process.env.PATH ?? ""].join(delimiter),
    PULUMI_HOME: join(base, "home"),
    PULUMI_BACKEND_URL: `file://${join(base, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "export-cli-test",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  return {
    dir,
    env,
    pulumi: (args) => runOk("pulumi", args, { cwd: dir, env, deadlineMs: PULUMI_DEADLINE_MS }),
  };
}
