import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "./freePort";
import { S3Client, type S3Endpoint } from "./s3Client";

/** The versitygw release scripts/install-versitygw.sh builds. */
export const VERSITYGW_VERSION = "1.8.0";
/** Region the gateway signs for; the Pulumi CLI is told the same through AWS_REGION. */
const S3_REGION = "us-east-1";
/** How long the gateway may take to answer its first request on a loaded machine. */
const START_DEADLINE_MS = 30_000;
/** Pause between readiness probes. */
const PROBE_INTERVAL_MS = 100;
/** How long a stopping gateway gets after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5_000;
/** Ports tried when another process takes the chosen one between probe and bind. */
const PORT_ATTEMPTS = 5;

/**
 * Where scripts/install-versitygw.sh puts the binary: `$SHIPPING_VERSITYGW_ROOT/versitygw`, else
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-shipping-webhooks/versitygw-v1.8.0/versitygw`.
 */
export function versitygwBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.SHIPPING_VERSITYGW_ROOT;
  const cache =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ""
      ? env.XDG_CACHE_HOME
      : join(homedir(), ".cache");
  const root =
    override !== undefined && override !== ""
      ? override
      : join(cache, "pulumi-shipping-webhooks", `versitygw-v${VERSITYGW_VERSION}`);
  return join(root, "versitygw");
}

/** A running gateway with one bucket, its own credentials and a POSIX folder of its own. */
export interface S3Server extends S3Endpoint {
  readonly bucket: string;
  readonly client: S3Client;
  /** The folder the gateway stores buckets in (deleted by `close`). */
  readonly dataDir: string;
  /** A Pulumi backend URL for `prefix` in the bucket: path-style, plain HTTP, loopback endpoint. */
  backendUrl(prefix?: string): string;
  /** AWS_* variables the Pulumi CLI needs to reach the bucket. */
  awsEnv(): Record<string, string>;
  close(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const done = exited(child);
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), STOP_GRACE_MS);
  });
  if ((await Promise.race([done, grace])) === "late") child.kill("SIGKILL");
  clearTimeout(timer);
  await done;
}

/** Starts the gateway on one free port; resolves once it answers a signed request, or rejects. */
async function launch(binary: string, target: S3Endpoint & { port: number }, dataDir: string) {
  const child = spawn(
    binary,
    [
      "--access",
      target.accessKeyId,
      "--secret",
      target.secretAccessKey,
      "--region",
      target.region,
      "--port",
      `127.0.0.1:${target.port}`,
      "--quiet",
      "posix",
      "--sidecar",
      join(dataDir, "meta"),
      join(dataDir, "buckets"),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8").on("data", (chunk: string) => {
      output = (output + chunk).slice(-4_000);
    });
  }
  const client = new S3Client(target);
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`versitygw exited with ${child.exitCode}: ${output}`);
    try {
      await client.request("GET", "/");
      return { child, client };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  }
  await stop(child);
  throw new Error(
    `versitygw did not answer on port ${target.port} within ${START_DEADLINE_MS} ms: ${output}`,
  );
}

/**
 * Starts versitygw on a free loopback port with fresh random credentials, a POSIX folder under the OS temp
 * folder and one bucket. Fails with the install command when the binary is missing.
 */
export async function startS3Server(bucket = "pulumi-state"): Promise<S3Server> {
  const binary = versitygwBinary();
  if (!existsSync(binary)) {
    throw new Error(`versitygw is not built (${binary}): run bash scripts/install-versitygw.sh`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), "versitygw-"));
  for (const dir of ["meta", "buckets"]) mkdirSync(join(dataDir, dir));
  const credentials = {
    region: S3_REGION,
    accessKeyId: `AK${randomBytes(8).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(20).toString("base64url"),
  };
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
    const port = await freePort();
    const target = { ...credentials, port, endpoint: `http://127.0.0.1:${port}` };
    try {
      const { child, client } = await launch(binary, target, dataDir);
      await client.createBucket(bucket);
      return {
        ...target,
        bucket,
        client,
        dataDir,
        backendUrl: (prefix = "") =>
          `s3://${bucket}${prefix ? `/${prefix}` : ""}?endpoint=127.0.0.1:${port}&disableSSL=true&s3ForcePathStyle=true`,
        awsEnv: () => ({
          AWS_ACCESS_KEY_ID: credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
          AWS_REGION: credentials.region,
        }),
        close: async () => {
          await stop(child);
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  throw new Error(`versitygw could not be started in ${PORT_ATTEMPTS} attempts`, { cause: lastError });
}

/** The S3 server of a test file (read `server` inside tests: it is set in `beforeAll`). */
interface S3ServerFixture {
  readonly server: S3Server;
}

/** Starts an S3 server ({@link startS3Server}) for the calling test file, closed after it. */
export function useS3Server(): S3ServerFixture {
  let server: S3Server | undefined;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(() => server?.close());
  return {
    get server() {
      if (server === undefined) throw new Error("the S3 server is read before beforeAll started it");
      return server;
    },
  };
}
