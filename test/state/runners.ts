import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Deployment } from "@pulumi/pulumi/automation";
import type { RunningSimulator } from "../../simulator";
import { dist, engine, REPO_ROOT, type Sandbox, sandbox } from "../support/engine";
import { ACME_KEY } from "../support/shops";
import type { S3Server } from "../support/versitygw";

/** The runner script: one Pulumi operation of the GitOps program, in a process of its own. */
const RUNNER = join(__dirname, "runner.cjs");
/** Bound of one runner process (its operation has a shorter one). */
const RUNNER_DEADLINE_MS = 300_000;
/** The passphrase that encrypts the stack's secrets, shared by every checkout as a CI secret would be. */
const PASSPHRASE = "runners-test-passphrase";

/** The operations a runner performs. */
type RunnerOperation = "up" | "preview" | "refresh" | "cancel";

/** How a runner process ended. */
interface RunnerOutcome {
  readonly ok: boolean;
  /** Everything it printed, and the operation's error (decoded) when it failed. */
  readonly output: string;
  /** The engine's resource changes of a successful operation. */
  readonly changes: Record<string, number>;
  readonly signal: NodeJS.Signals | null;
}

/** A started runner: its process, and a promise of how it ended. */
interface StartedRunner {
  readonly child: ChildProcess;
  readonly done: Promise<RunnerOutcome>;
  /** SIGKILL to the runner and every process it started (the CLI, the provider): a CI machine lost. */
  kill(): void;
}

/** One CI runner: a checkout of the GitOps repository with a machine of its own (PULUMI_HOME). */
interface Runner {
  readonly box: Sandbox;
  start(operation: RunnerOperation): StartedRunner;
  run(operation: RunnerOperation): Promise<RunnerOutcome>;
}

/** A GitOps stack in the bucket under `prefix`, created once "from a laptop", and checkouts to run it. */
interface SharedStack {
  readonly prefix: string;
  /** The stack's latest checkpoint as stored in the bucket (with its pending operations). */
  state(): Promise<Deployment>;
  /** Keys of the lock objects of the stack. */
  locks(): Promise<string[]>;
  runner(name: string): Runner;
}

/** Every live descendant of `root` (children, their children, ...), from the process table. */
export function descendantsOf(root: number): number[] {
  const table = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" });
  const children = new Map<number, number[]>();
  for (const line of table.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || Number.isNaN(pid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * SIGKILL to `root` and every process under it, as when a CI machine is lost. Killing the process group is
 * not enough: the Pulumi CLI starts each plugin, the dynamic provider included, in a process group of its
 * own, and an orphaned provider would go on with its in-flight request (and its retries).
 */
function killTree(root: number): void {
  for (const pid of [root, ...descendantsOf(root)]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

function outcomeOf(printed: string, signal: NodeJS.Signals | null): RunnerOutcome {
  const line = printed.split("\n").find((l) => l.startsWith("RUNNER-RESULT "));
  const result =
    line === undefined ? {} : (JSON.parse(line.slice("RUNNER-RESULT ".length)) as Record<string, unknown>);
  const error = typeof result.error === "string" ? `\n${result.error}` : "";
  return {
    ok: result.ok === true,
    output: `${printed}${error}`,
    changes: (result.changes ?? {}) as Record<string, number>,
    signal,
  };
}

/** The files of a checkout of examples/gitops that a deploy job uses (dependencies resolve from the repository). */
const GITOPS_FILES = ["Pulumi.yaml", "Pulumi.production.yaml", "index.ts", "package.json", "tsconfig.json"];

/**
 * Creates the stack of examples/gitops in the bucket (as the README's set-up step does from a laptop: `pulumi
 * stack init production`, which writes `encryptionsalt` into Pulumi.production.yaml) with `shipping:baseUrl`
 * pointing at `sim`. Every runner's checkout then gets that committed Pulumi.yaml and Pulumi.production.yaml.
 */
export async function sharedGitopsStack(
  sim: RunningSimulator,
  s3: S3Server,
  prefix: string,
): Promise<SharedStack> {
  const laptop = sandbox(`${prefix}-laptop`);
  for (const file of GITOPS_FILES) {
    copyFileSync(join(REPO_ROOT, "examples/gitops", file), join(laptop.workDir, file));
  }
  const stackFile = join(laptop.workDir, "Pulumi.production.yaml");
  writeFileSync(
    stackFile,
    readFileSync(stackFile, "utf8").replace("https://api.shipping.example.com", sim.baseUrl),
  );
  const env = {
    PULUMI_BACKEND_URL: s3.backendUrl(prefix),
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    SHIPPING_API_KEY: ACME_KEY,
    ...s3.awsEnv(),
  };
  await engine(
    dist.stacks.openProjectStack({
      workDir: laptop.workDir,
      stackName: "production",
      env: { ...env, PULUMI_HOME: laptop.pulumiHome },
    }),
    "stack init",
  );
  const stackKey = `${prefix}/.pulumi/stacks/webhooks/production.json`;
  return {
    prefix,
    state: async () => {
      const keys = (await s3.client.listObjects(s3.bucket)).map((o) => o.key);
      if (!keys.includes(stackKey)) return { version: 3, deployment: { resources: [] } };
      const file = JSON.parse((await s3.client.getObject(s3.bucket, stackKey)).toString("utf8"));
      return { version: 3, deployment: file.checkpoint.latest ?? { resources: [] } };
    },
    locks: async () =>
      (await s3.client.listObjects(s3.bucket))
        .map((o) => o.key)
        .filter((key) => key.startsWith(`${prefix}/.pulumi/locks/`)),
    runner: (name) => {
      const box = sandbox(`${prefix}-${name}`);
      for (const file of GITOPS_FILES) copyFileSync(join(laptop.workDir, file), join(box.workDir, file));
      const start = (operation: RunnerOperation): StartedRunner => {
        const child = spawn(process.execPath, [RUNNER, REPO_ROOT, box.workDir, operation], {
          cwd: box.workDir,
          env: {
            ...process.env,
            ...env,
            PULUMI_HOME: box.pulumiHome,
            SHIPPING_PULUMI_ROOT: dist.pulumiCli.pulumiCliRoot(),
            PULUMI_SKIP_UPDATE_CHECK: "1",
          },
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
          output += chunk;
        });
        child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
          output += chunk;
        });
        const kill = () => {
          if (child.pid !== undefined) killTree(child.pid);
        };
        const done = new Promise<RunnerOutcome>((resolve, reject) => {
          const timer = setTimeout(() => {
            kill();
            reject(
              new Error(`runner ${name} ${operation} did not end within ${RUNNER_DEADLINE_MS} ms\n${output}`),
            );
          }, RUNNER_DEADLINE_MS);
          child.on("error", (error) => {
            clearTimeout(timer);
            reject(error);
          });
          child.on("close", (_status, signal) => {
            clearTimeout(timer);
            resolve(outcomeOf(output, signal));
          });
        });
        return { child, done, kill };
      };
      return { box, start, run: (operation) => start(operation).done };
    },
  };
}
