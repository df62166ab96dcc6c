/**
 * The Pulumi CLI process that serves a provider process's deployment, named so that no later process is taken
 * for it: its pid, its start time (a later process may reuse the pid) and, where the start time counts from
 * boot, the boot. With the engine's address it keys the files a deployment's provider processes share
 * (deploymentClaims.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";

/** How far up to look: a plugin's parent is the CLI; the dynamic host's is a shell the CLI started. */
const DEPTH = 4;

/**
 * The Pulumi CLI process above this one: from /proc where there is one (Linux), else from `ps` (macOS, BSDs);
 * undefined where neither tells (Windows), or when no `pulumi` is found above (not started by an engine).
 */
export function pulumiCliProcess(from = process.ppid): string | undefined {
  return existsSync("/proc/self/stat") ? fromProc(from) : fromPs(from);
}

/** The walk through /proc: `<pid>@<start time in ticks since boot>@<boot id>` (the CLI may be pid 1). */
export function fromProc(from: number): string | undefined {
  let pid = from;
  for (let depth = 0; depth < DEPTH && pid >= 1; depth++) {
    const stat = procStat(pid);
    if (stat === undefined) return undefined;
    if (stat.name === "pulumi") return `${pid}@${stat.start}@${bootId()}`;
    pid = stat.parent;
  }
  return undefined;
}

/**
 * The walk through `ps` (POSIX options, as macOS and procps both take them): `<pid>@<start time>`, the start as
 * a date to the second in the C locale, which a reboot does not repeat.
 */
export function fromPs(from: number): string | undefined {
  let pid = from;
  for (let depth = 0; depth < DEPTH && pid >= 1; depth++) {
    const ps = psFields(pid);
    if (ps === undefined) return undefined;
    if (basename(ps.command) === "pulumi") return `${pid}@${ps.start}`;
    pid = ps.parent;
  }
  return undefined;
}

/**
 * The start time of process `pid` as the walks above tell it (ticks since boot from /proc, else `ps`'s date), or
 * undefined when the process is gone or nothing tells (Windows): with the pid it names one process for good.
 */
export function startOf(pid: number): string | undefined {
  return (existsSync("/proc/self/stat") ? procStat(pid) : psFields(pid))?.start;
}

/** A process as /proc/<pid>/stat tells it: its name, its parent, its start in ticks since boot. */
function procStat(pid: number): { name: string; parent: number; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name is in parentheses and may hold spaces and parentheses itself: the fields follow the last ")".
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name: state, ppid, ... starttime is the 20th field (stat(5) field 22).
    return { name, parent: Number(fields[1]), start: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

/** A process as `ps` tells it: its parent, its start (a date, single-spaced), its command. */
function psFields(pid: number): { parent: number; start: string; command: string } | undefined {
  // "<ppid> <weekday> <month> <day> <hh:mm:ss> <year> <command, maybe a path with spaces>"
  const match = /^\s*(\d+)\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.+?)\s*$/.exec(psLine(pid) ?? "");
  if (match === null) return undefined;
  const [, parent, started, command] = match;
  return { parent: Number(parent), start: (started ?? "").replace(/\s+/g, " "), command: command ?? "" };
}

/** `ps`'s line for `pid`: parent, start, command; undefined when `ps` is missing or the process gone. */
function psLine(pid: number): string | undefined {
  try {
    return execFileSync("ps", ["-o", "ppid=", "-o", "lstart=", "-o", "comm=", "-p", String(pid)], {
      encoding: "utf8",
      env: { ...process.env, LC_ALL: "C" },
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5_000,
    });
  } catch {
    return undefined;
  }
}

/** This boot of the machine (a start time in ticks counts from boot: a file kept over a reboot is not read). */
function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "";
  }
}
