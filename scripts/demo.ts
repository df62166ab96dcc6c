/**
 * `npm start` (up), `npm run preview` and `npm run destroy`: the root project (Pulumi.yaml and its program
 * `dist/index.js`, one shop's three hooks from Pulumi.yaml) deployed by the real Pulumi CLI and its Node.js
 * language host, as `pulumi up` in the repository's root would, to the embedded Shipping API simulator, whose
 * data persists in .sim/state.json and whose stack lives in .pulumi-state/. Running `npm start` twice changes
 * nothing.
 */
import { join, resolve } from "node:path";
import { ShippingClient } from "../provider";
import { DEFAULT_SHOPS, startSimulator } from "../simulator";
import { ensurePulumiCli } from "./ensurePulumiCli";
import { openProjectStack, withDeadline } from "./lib/stacks";

/**
 * The project folder: the repository's root, where Pulumi.yaml runs `dist/index.js`. `SHIPPING_DEMO_PROJECT`
 * names another folder with such a Pulumi.yaml (the demo's test runs it in a folder of its own).
 */
const PROJECT_DIR = process.env.SHIPPING_DEMO_PROJECT ?? resolve(__dirname, "..", "..");
const SIMULATOR_DATA_FILE = join(PROJECT_DIR, ".sim", "state.json");
/**
 * The simulator's port, the same on every run: the subscriptions' ids mean something only at the API that
 * issued them, so a simulator at another port is another API, and the stack refuses to act there. The
 * simulator command's own default; `SHIPPING_DEMO_PORT` sets another.
 */
const DEMO_PORT = Number(process.env.SHIPPING_DEMO_PORT ?? 4010);
const STACK_NAME = "dev";
const OPERATION_DEADLINE_MS = 10 * 60_000;
const OPERATIONS = ["up", "preview", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

function printTable(rows: Array<{ id: number; hook: string; url: string }>): void {
  if (rows.length === 0) {
    console.log("\nThe demo shop has no webhook subscriptions.");
    return;
  }
  const widths = [
    Math.max(2, ...rows.map((r) => String(r.id).length)),
    Math.max(4, ...rows.map((r) => r.hook.length)),
  ];
  const line = (id: string, hook: string, url: string) =>
    `${id.padEnd(widths[0] ?? 2)} | ${hook.padEnd(widths[1] ?? 4)} | ${url}`;
  console.log("\nLive webhook subscriptions of the demo shop:");
  console.log(line("id", "hook", "url"));
  console.log(line("-".repeat(widths[0] ?? 2), "-".repeat(widths[1] ?? 4), "---"));
  for (const row of rows) console.log(line(String(row.id), row.hook, row.url));
}

async function main(operation: Operation): Promise<void> {
  console.log(ensurePulumiCli().reason);
  const shop = DEFAULT_SHOPS[0];
  const apiKey = shop?.keys.readWrite[0];
  if (shop === undefined || apiKey === undefined) throw new Error("the simulator has no default shop");
  const simulator = await startSimulator({ dataFile: SIMULATOR_DATA_FILE, port: DEMO_PORT }).catch(
    (error: unknown) => {
      if ((error as { code?: unknown }).code !== "EADDRINUSE") throw error;
      throw new Error(
        `port ${DEMO_PORT} is in use (another demo or simulator?): stop it, or set SHIPPING_DEMO_PORT to a free port and use that one for every run of this demo`,
      );
    },
  );
  console.log(
    `Shipping API simulator at ${simulator.baseUrl} (data: ${SIMULATOR_DATA_FILE}, shop: ${shop.name})`,
  );
  try {
    const stack = await openProjectStack({
      workDir: PROJECT_DIR,
      stackName: STACK_NAME,
      // The key reaches the provider through the environment only: nothing of it is written to disk.
      env: { SHIPPING_API_KEY: apiKey, SHIPPING_BASE_URL: simulator.baseUrl },
    });
    const onOutput = (out: string) => process.stdout.write(out);
    const run: Record<Operation, () => Promise<unknown>> = {
      up: () => stack.up({ onOutput }),
      preview: () => stack.preview({ onOutput, diff: true }),
      destroy: () => stack.destroy({ onOutput }),
    };
    await withDeadline(run[operation](), OPERATION_DEADLINE_MS, `pulumi ${operation}`);
    const client = new ShippingClient({ baseUrl: simulator.baseUrl, apiKey });
    printTable(await client.list());
    await client.close();
  } finally {
    await simulator.close();
  }
}

const operation = (process.argv[2] ?? "up") as Operation;
if (!OPERATIONS.includes(operation)) {
  console.error(`usage: node dist/scripts/demo.js <${OPERATIONS.join("|")}>`);
  process.exit(2);
}
main(operation).catch((error: unknown) => {
  console.error(`\n${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
