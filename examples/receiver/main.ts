/**
 * `node dist/examples/receiver/main.js [--port 8443] [--subscribe http://127.0.0.1:4010]`: run the receiver
 * by hand. It makes a private CA, writes its certificate where the simulator can be pointed at it, listens on
 * 127.0.0.1, optionally subscribes itself to every hook of the simulator's demo shop, and prints each
 * delivery until Ctrl-C.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createPrivateCa } from "./privateCa";
import { startReceiver } from "./receiver";
import { subscribeReceiver } from "./subscribe";

/** Port the receiver listens on by default. */
const DEFAULT_RECEIVER_PORT = 8443;
/** The demo shop's key of the simulator's default shops. */
const DEMO_KEY = "sim_demo_rw";
/** How long `--subscribe` waits for the simulator to come up, in milliseconds, and between tries. */
const SUBSCRIBE_WAIT_MS = 120_000;
const SUBSCRIBE_RETRY_MS = 1_000;

/** Subscribe once the simulator answers (it is started after this receiver, with the receiver's CA). */
async function subscribeWhenUp(simulatorUrl: string, apiKey: string, receiverUrl: string): Promise<number[]> {
  const deadline = Date.now() + SUBSCRIBE_WAIT_MS;
  for (;;) {
    try {
      return await subscribeReceiver(simulatorUrl, apiKey, receiverUrl);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_RETRY_MS));
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string" }, subscribe: { type: "string" }, key: { type: "string" } },
  });
  const port = Number(values.port ?? DEFAULT_RECEIVER_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  const apiKey = values.key ?? DEMO_KEY;
  const ca = await createPrivateCa();
  const dir = resolve(".tmp", "receiver");
  mkdirSync(dir, { recursive: true });
  const caFile = join(dir, "ca.pem");
  writeFileSync(caFile, ca.caPem);
  const receiver = await startReceiver({
    tls: ca.server,
    apiKey,
    port,
    onArrival: (a) =>
      console.log(
        `${a.status} ${a.hook ?? "?"} delivery ${a.deliveryId ?? "?"}${a.note ? ` (${a.note})` : ""}`,
      ),
  });
  console.log(`Receiver listening on ${receiver.url}/webhooks/<hook>`);
  console.log(`Its CA: ${caFile}; start the simulator with: npx shipping-api-sim --delivery-ca ${caFile}`);
  if (values.subscribe !== undefined) {
    console.log(`Waiting for the simulator at ${values.subscribe} to subscribe every hook...`);
    const ids = await subscribeWhenUp(values.subscribe, apiKey, receiver.url);
    console.log(
      `Subscribed every hook (ids ${ids.join(", ")}); try: npx shipping-api-sim trigger order_status_change`,
    );
  }
  process.on("SIGINT", () => {
    void receiver.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(`receiver: ${(error as Error).message}`);
  process.exit(1);
});
