/**
 * Which provider process wrote a line of a deployment's shared file, and whether it still runs. A deployment is
 * keyed by the engine's address and the CLI process (deploymentClaims.ts), which `pulumi watch` keeps for all
 * its updates: an update whose engine is handed the port of an earlier one gets that one's file. The earlier
 * update's provider processes ended with it, so a line whose writer no longer runs is an earlier deployment's,
 * and is not read: its claims would keep a removed resource's subscription from its delete (live, in no state),
 * its declarations would refuse a rename as declared twice. Every process of one deployment runs until the
 * deployment ends, so none of its lines is skipped.
 */
import { startOf } from "./cliProcess";

/** This process, as its lines name it: `<pid>@<start time>` (the pid alone may be reused). */
export function thisWriter(): string {
  return `${process.pid}@${startOf(process.pid) ?? ""}`;
}

/** What each writer was found to be, once per process: a writer that ended never runs again. */
const known = new Map<string, boolean>();

/**
 * Whether the writer a line names still runs. A writer that is not `<pid>@<start>` is no writer of this
 * release's files (their name says their format: deploymentClaims.ts): its line is not read. Where no start time
 * can be told (no `ps`), a writer names its pid alone (`<pid>@`), and runs while its pid does.
 */
export function isRunning(writer: string): boolean {
  const cached = known.get(writer);
  if (cached !== undefined) return cached;
  const match = /^([1-9]\d{0,9})@(.*)$/.exec(writer);
  const pid = Number(match?.[1]);
  const start = match?.[2];
  const running = match !== null && (start === "" ? pidRuns(pid) : startOf(pid) === start);
  known.set(writer, running);
  return running;
}

/** Whether a process of this pid runs (signal 0 tests it; EPERM: it runs, as another user's). */
function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
