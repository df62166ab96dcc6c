import { spawn } from "node:child_process";

/** What a child process printed and how it ended. */
export interface ProcessResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run a child process. */
interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The child (and everything it started) is killed after this long, and the promise rejects. */
  readonly deadlineMs: number;
}

/**
 * Runs `command` asynchronously (the simulator lives in this process, so the event loop must keep turning),
 * in its own process group so that a deadline kills the Pulumi CLI it may have started too.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      reject(
        new Error(
          `${command} ${args.join(" ")} did not finish within ${options.deadlineMs} ms\n${stderr.slice(-4000)}`,
        ),
      );
    }, options.deadlineMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** Like {@link runProcess}, but rejects (with the output) unless the child exits with status 0. */
export async function runOk(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<ProcessResult> {
  const result = await runProcess(command, args, options);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited with ${result.status ?? result.signal}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
    );
  }
  return result;
}
