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
 * Whether the writer a line names still runs. A line that names none (an older release) or a writer whose start
 * time nothing tells (Windows, no `ps`) is taken as running, as it was before lines named writers.
 */
export function isRunning(writer: string | undefined): boolean {
  if (writer === undefined) return true;
  const cached = known.get(writer);
  if (cached !== undefined) return cached;
  const at = writer.indexOf("@");
  const pid = Number(writer.slice(0, at));
  const start = writer.slice(at + 1);
  const running =
    at < 1 || !Number.isSafeInteger(pid) || start === "" || startOf(pid) === start || startUnknowable();
  known.set(writer, running);
  return running;
}

/** Whether this machine tells no process's start time (then no line is skipped). */
function startUnknowable(): boolean {
  return startOf(process.pid) === undefined;
}
