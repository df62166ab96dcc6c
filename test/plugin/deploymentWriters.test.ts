/**
 * An earlier deployment's lines in a deployment's shared files are not read (writers.ts). `pulumi watch` runs
 * every update in one CLI process, and an update whose engine gets the port of an earlier one gets that one's
 * files: its claims would keep a removed resource's subscription from the delete (live, in no state), its
 * declarations refuse a rename as declared twice. The earlier update's provider processes have ended, so their
 * lines are skipped; a process that still runs (one of this deployment) is read.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveShop } from "../../provider/config/settings";
import { Claims } from "../../provider/facts/claims";
import { startOf } from "../../provider/facts/cliProcess";
import { DeploymentClaims } from "../../provider/facts/deploymentClaims";
import { SharedDeclarations } from "../../provider/facts/deploymentDeclarations";
import { isRunning, thisWriter } from "../../provider/facts/writers";
import { ACME_KEY } from "../support/shops";

const API = "https://api.example.com";
const HOOK = "order_status_change";
const OLD = "urn:pulumi:dev::p::shipping:index:WebhookSubscription::old";
const NEW = "urn:pulumi:dev::p::shipping:index:WebhookSubscription::new";
const ACME = resolveShop(
  undefined,
  (key) => ({ "shipping:baseUrl": API, "shipping:apiKey": ACME_KEY })[key],
  {},
);

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "writers-test-"));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A Node.js process that waits (killed after the test), and its writer name. */
function runningProcess(): { child: ChildProcess; writer: string } {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  const pid = child.pid as number;
  return { child, writer: `${pid}@${startOf(pid)}` };
}

/** The writer name of a process that ran and has ended, as an earlier update's provider process has. */
async function endedWriter(): Promise<string> {
  const { child, writer } = runningProcess();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return writer;
}

/** The file as if another process, `writer`, had written every line this process wrote. */
function asWrittenBy(file: string, writer: string): void {
  writeFileSync(
    file,
    readFileSync(file, "utf8").replaceAll(JSON.stringify(thisWriter()), JSON.stringify(writer)),
  );
}

describe("whether the process that wrote a line still runs", () => {
  it.each([
    ["this process", true, async () => thisWriter()],
    ["another process that runs", true, async () => runningProcess().writer],
    ["a process that has ended", false, endedWriter],
    ["this pid with another start time (a pid reused)", false, async () => `${process.pid}@1`],
    ["a writer with no @", false, async () => "12345"],
    ["a writer that is no pid", false, async () => "x@1"],
    // Where no start time can be told (no `ps`), a writer is its pid alone: running while the pid runs.
    ["the pid alone, of this process", true, async () => `${process.pid}@`],
    [
      "the pid alone, of a process that has ended",
      false,
      async () => (await endedWriter()).replace(/@.*/, "@"),
    ],
  ])("%s: running %s", async (_name, running, writer) => {
    expect(isRunning(await writer())).toBe(running);
  });
});

describe("a deployment's file that an earlier deployment of the same CLI process and port wrote", () => {
  it("does not keep a subscription that only the earlier deployment's process claimed", async () => {
    const file = join(dir, "watch.claims");
    new DeploymentClaims(file).add(API, 7);
    new DeploymentClaims(file).add(API, 8, true);
    asWrittenBy(file, await endedWriter());
    const now = new Claims();
    now.share(new DeploymentClaims(file));
    expect([now.isClaimed(API, 7), now.isKept(API, 8), now.isClaimed(API, 8)]).toEqual([false, false, false]);
    // A process of this deployment that still runs is read.
    new DeploymentClaims(file).add(API, 9, true);
    expect([now.isClaimed(API, 9), now.isKept(API, 9)]).toEqual([true, true]);
  });

  it("does not refuse a resource as declared twice by a resource of the earlier deployment", async () => {
    const file = join(dir, "watch.declarations");
    new SharedDeclarations(file, "key").declare(ACME, HOOK, OLD);
    asWrittenBy(file, await endedWriter());
    // The update renamed OLD to NEW with an alias: NEW is the first declaration of this deployment.
    const later = new SharedDeclarations(file, "key");
    expect(later.declare(ACME, HOOK, NEW)).toBeUndefined();
    // Its own declarations are still shared: a second resource of this deployment is refused.
    expect(new SharedDeclarations(file, "key").declare(ACME, HOOK, OLD)).toBe(NEW);
  });
});

describe("a line that names no writer (an older release's form; its files have other names)", () => {
  it("is not read: neither a claim nor a declaration", () => {
    const claims = join(dir, "old.claims");
    writeFileSync(claims, `\n${JSON.stringify([API, 7])}\n`);
    const now = new Claims();
    now.share(new DeploymentClaims(claims));
    expect(now.isClaimed(API, 7)).toBe(false);
    const declarations = join(dir, "old.declarations");
    new SharedDeclarations(declarations, "key").declare(ACME, HOOK, OLD);
    const text = readFileSync(declarations, "utf8");
    writeFileSync(declarations, text.replaceAll(`,${JSON.stringify(thisWriter())}]`, "]"));
    expect(new SharedDeclarations(declarations, "key").declare(ACME, HOOK, NEW)).toBeUndefined();
  });
});

describe("a subscription a resource keeps unchanged, in another provider process of the deployment", () => {
  it("is kept there too: a create of its hook under another key of the shop is refused", () => {
    const file = join(dir, "two-processes.claims");
    const dynamicHost = new Claims();
    dynamicHost.share(new DeploymentClaims(file));
    const explicitProvider = new Claims();
    explicitProvider.share(new DeploymentClaims(file));
    dynamicHost.keep(API, 7);
    expect(explicitProvider.isKept(API, 7)).toBe(true);
    expect(explicitProvider.isKept("https://other.example.com", 7)).toBe(false);
    dynamicHost.claim(API, 8); // created or adopted, not kept as recorded
    expect(explicitProvider.isKept(API, 8)).toBe(false);
  });
});
