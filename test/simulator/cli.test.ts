import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../../simulator/cliArgs";
import { DEFAULT_SWITCHES } from "../../simulator/constants";
import { api, b64, call, subs } from "./helpers";

const ROOT = resolve(__dirname, "../..");
const CLI = join(ROOT, "dist", "simulator", "cli.js");

/** A build that finished this soon after a source change may have read the older source. */
const FRESHNESS_MARGIN_MS = 1_000;

function builtIsFresh(): boolean {
  let built: number;
  try {
    built = statSync(CLI).mtimeMs;
  } catch {
    return false;
  }
  const dir = join(ROOT, "simulator");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .every((f) => statSync(join(dir, f)).mtimeMs <= built - FRESHNESS_MARGIN_MS);
}

// `npm test` builds first; rebuilding here could swap dist/ under engine tests running at the same time.
beforeAll(() => {
  if (!builtIsFresh())
    throw new Error(`${CLI} is missing or older than simulator/*.ts: run "npm run build" first`);
});

interface Running {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`CLI did not print its base URL within 10 s; stdout: ${out} stderr: ${err}`));
    }, 10_000);
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match?.[1] !== undefined && out.includes("State:")) {
        clearTimeout(timer);
        resolveStart({ child, baseUrl: match[1], stdout: () => out, exit });
      }
    });
    void exit.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code} before listening; stderr: ${err}`));
    });
  });
}

async function stop(running: Running, signal: NodeJS.Signals = "SIGTERM") {
  running.child.kill(signal);
  return running.exit;
}

function runToExit(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("shipping-api-sim", () => {
  it("exits 2 on a --set number the parse would change, naming the flag, the path and the fix", () => {
    const result = runToExit([
      "trigger",
      "shipment_status_change",
      "--set",
      'meta={"id":12345678901234567890}',
      "--url",
      "http://127.0.0.1:9",
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `--set meta={"id":12345678901234567890}: meta.id: 12345678901234567890 is an integer beyond 2^53`,
    );
    expect(result.stderr).toContain(`--set 'meta={"id":"12345678901234567890"}'`);
  });

  it("keeps its shebang", () => {
    expect(execFileSync("head", ["-1", CLI], { encoding: "utf8" }).trim()).toBe("#!/usr/bin/env node");
  });

  it("prints the base URL and demo key, serves the API, and stops cleanly on SIGTERM", async () => {
    const sim = await start(["--port", "0"]);
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.stdout()).toContain("Demo API key (shop demo): sim_demo_rw");
    expect((await call(sim.baseUrl, "GET", "/")).json).toEqual({
      title: "Shipping Service API (simulator)",
      status: "OK",
    });
    const exited = await stop(sim);
    expect(exited).toEqual({ code: 0, signal: null });
    expect(sim.stdout()).toContain("Stopped (SIGTERM).");
  });

  it("stops cleanly on SIGINT", async () => {
    const sim = await start(["--port=0"]);
    expect(await stop(sim, "SIGINT")).toEqual({ code: 0, signal: null });
  });

  it("applies the switch flags", async () => {
    const sim = await start([
      "--port",
      "0",
      "--auth",
      "basic",
      "--get-status",
      "201",
      "--overwrite",
      "keep-id",
      "--rate-limit",
      "production",
      "--retry-after",
      "--require-user-agent",
      "--partial-ids",
      "404",
      "--delete-check-order",
      "existence",
      "--shop-fields",
      "omitted",
    ]);
    try {
      expect((await call(sim.baseUrl, "GET", "/__sim/switches")).json).toEqual({
        ...DEFAULT_SWITCHES,
        authScheme: "basic",
        getStatus: 201,
        overwrite: "keep-id",
        rateLimit: "production",
        retryAfter: true,
        requireUserAgent: true,
        partialIds: "404",
        deleteCheckOrder: "existence",
        shopFields: "omitted",
      });
    } finally {
      await stop(sim);
    }
  });

  it("persists with --data and uses shops from --seed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sim-cli-"));
    const seed = join(dir, "shops.json");
    writeFileSync(seed, JSON.stringify({ shops: [{ name: "acme", keys: { readWrite: ["acme_key"] } }] }));
    const data = join(dir, "state", "state.json");
    const headers = { authorization: `basic ${b64("acme_key")}` };
    const first = await start(["--port", "0", "--data", data, "--seed", seed]);
    expect(first.stdout()).toContain("Demo API key (shop acme): acme_key");
    expect(first.stdout()).toContain(`State: ${data}`);
    const posted = await call(first.baseUrl, "POST", "/webhook_subscriptions", {
      headers,
      body: subs(["order_status_change", "https://example.com/a"]),
    });
    expect(posted.status).toBe(200);
    await stop(first);
    const second = await start(["--port", "0", "--data", data, "--seed", seed]);
    try {
      expect((await call(second.baseUrl, "GET", "/__sim/state")).json).toEqual({
        nextId: 2,
        shops: { acme: [{ id: 1, hook: "order_status_change", url: "https://example.com/a" }] },
      });
      expect((await api({ baseUrl: second.baseUrl } as never, "GET", "/webhook_subscriptions")).status).toBe(
        401,
      );
    } finally {
      await stop(second);
    }
  });

  it.each([
    [["--auth", "token"], "--auth must be one of both, basic, bearer"],
    [["--get-status", "204"], "--get-status must be one of 200, 201"],
    [["--overwrite", "replace"], "--overwrite must be one of new-id, keep-id"],
    [["--rate-limit", "on"], "--rate-limit must be one of off, production"],
    [["--port", "abc"], "--port must be an integer from 0 to 65535"],
    [["--port", "70000"], "--port must be an integer from 0 to 65535"],
    [["--nope"], "--nope"],
    [["--port"], "--port"],
    [["extra"], "extra"],
    [["--host", "0.0.0.0", "--port", "0"], "not a loopback address"],
    [["--seed", "/nonexistent/shops.json"], "--seed /nonexistent/shops.json: cannot read the file (ENOENT)"],
    [["--delivery-ca", "/nonexistent/ca.pem"], "--delivery-ca /nonexistent/ca.pem"],
  ])("exits 2 on %j naming the flag", (args, message) => {
    const result = runToExit(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
  });

  it("exits 1 with the SimulatorStateError message on a corrupt data file", () => {
    const data = join(mkdtempSync(join(tmpdir(), "sim-cli-")), "state.json");
    writeFileSync(data, "{broken");
    const result = runToExit(["--port", "0", "--data", data]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`simulator data file ${data} is not valid JSON`);
    expect(result.stderr).toContain("move it aside or delete it to start empty");
  });

  it("--help prints usage and exits 0", () => {
    const result = runToExit(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: shipping-api-sim");
    expect(result.stdout).toContain("--rate-limit off|production");
  });
});

describe("parseCli", () => {
  it("defaults to port 4010 and no switches", () => {
    expect(parseCli([])).toEqual({ help: false, options: { port: 4010, switches: {} } });
  });

  it("rejects a bad seed file content naming the problem", () => {
    const seed = join(mkdtempSync(join(tmpdir(), "sim-cli-")), "shops.json");
    writeFileSync(seed, JSON.stringify([{ name: "x", keys: { readWrite: [] } }]));
    expect(() => parseCli(["--seed", seed])).toThrow(UsageError);
    expect(() => parseCli(["--seed", seed])).toThrow(/readWrite/);
    writeFileSync(seed, "nope");
    expect(() => parseCli(["--seed", seed])).toThrow(/not valid JSON/);
  });
});
