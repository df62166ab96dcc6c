import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { startSimulator } from "../../simulator";
import { median } from "./table";

const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** What a fresh provider process loads before its first request, and how long until that request lands. */
export interface ColdStart {
  /** node start -> first API request, loading only our runtime. */
  readonly runtimeOnlyMs: number;
  /** The same, after loading Pulumi's dynamic-provider host modules first (what the real plugin loads). */
  readonly withPulumiHostMs: number;
  /** Time to require our runtime module, inside the process. */
  readonly requireRuntimeMs: number;
}

const SCRIPT = (withHost: boolean) => `
const t0 = performance.now();
${withHost ? 'require("@pulumi/pulumi"); require("@pulumi/pulumi/proto/provider_grpc_pb.js");' : ""}
const t1 = performance.now();
const runtime = require("pulumi-shipping-webhooks/runtime");
const t2 = performance.now();
process.stderr.write(JSON.stringify({ requireRuntimeMs: t2 - t1 }) + "\\n");
runtime.configure({ config: { get: () => undefined } }).then(() => runtime.read("1", {}));
`;

async function once(withHost: boolean): Promise<{ firstRequestMs: number; requireRuntimeMs: number }> {
  const sim = await startSimulator({ shops: [{ name: "cold", keys: { readWrite: ["cold-start-key"] } }] });
  try {
    const started = Date.now();
    const child = spawn(process.execPath, ["-e", SCRIPT(withHost)], {
      cwd: REPO_ROOT,
      env: { ...process.env, SHIPPING_API_KEY: "cold-start-key", SHIPPING_BASE_URL: sim.baseUrl },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    await new Promise((done) => child.on("exit", done));
    const first = sim.requests()[0];
    if (first === undefined) throw new Error(`the cold process made no request: ${stderr}`);
    const parsed = JSON.parse(stderr.split("\n")[0] ?? "{}") as { requireRuntimeMs: number };
    return { firstRequestMs: Date.parse(first.at) - started, requireRuntimeMs: parsed.requireRuntimeMs };
  } finally {
    await sim.close();
  }
}

/** Item 4: provider process start to first request, medians of `runs`. */
export async function measureColdStart(runs: number): Promise<ColdStart> {
  const plain: number[] = [];
  const host: number[] = [];
  const requireMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = await once(false);
    plain.push(a.firstRequestMs);
    requireMs.push(a.requireRuntimeMs);
    host.push((await once(true)).firstRequestMs);
  }
  return {
    runtimeOnlyMs: median(plain),
    withPulumiHostMs: median(host),
    requireRuntimeMs: median(requireMs),
  };
}
