/** The built simulator CLI as a child process: start it on a data file, find its URL, kill it. */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

/** Root of the repository. */
export const ROOT = resolve(__dirname, "../..");
/** The built CLI (`npm run build`). */
export const CLI = join(ROOT, "dist", "simulator", "cli.js");
/** How long a start may take on a loaded machine, in milliseconds. */
const START_DEADLINE_MS = 20_000;

/** A running simulator process. */
export interface SimProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed on stdout so far. */
  stdout(): string;
}

/**
 * Start the CLI with `args` (plus `--port 0`) and `env` added to this process's environment; resolves once it
 * prints its URL, rejects if it exits first.
 */
export function startSimProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SimProcess> {
  const child = spawn(process.execPath, [CLI, "--port", "0", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  let out = "";
  let err = "";
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`simulator did not start within ${START_DEADLINE_MS} ms; stderr: ${err}`));
    }, START_DEADLINE_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolveStart({ child, baseUrl: match[1], exited, stdout: () => out });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited (${code ?? signal}) before listening; stderr: ${err}`));
    });
  });
}

/** SIGKILL the process and wait until it is gone. */
export async function killHard(sim: SimProcess): Promise<void> {
  sim.child.kill("SIGKILL");
  await sim.exited;
}
