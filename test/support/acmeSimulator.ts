import { afterAll, beforeAll, beforeEach } from "vitest";
import { ShippingClient, type ShippingClientOptions } from "../../provider/client/shippingClient";
import { type RunningSimulator, type Switches, startSimulator } from "../../simulator";
import { ACME_KEY, TEST_SHOPS } from "./shops";

/** The simulator of a test file and the provider config of its default shop (acme). */
export interface AcmeSimulator {
  readonly sim: RunningSimulator;
  readonly config: Record<string, string>;
  /** The simulator with `switches` laid over the file's for the calling test (set back before the next). */
  withSwitches(switches: Partial<Switches>): RunningSimulator;
  /** A shop's live subscriptions as `hook=url`, sorted (acme's unless named). */
  liveHooks(shop?: string): string[];
}

/** What a test file's simulator differs in from the default one. */
interface AcmeSimulatorOptions {
  /** The switches every test of the file starts with (the simulator's defaults otherwise). */
  readonly switches?: Partial<Switches>;
}

/**
 * Starts a simulator of {@link TEST_SHOPS} on loopback for the calling test file (or `describe` block), closed
 * after it. Before each test it is reset and its switches are set back to the file's (`options.switches` over
 * the simulator's defaults), so a test that changes a switch needs no undo. Read its fields inside tests (they
 * are set in `beforeAll`).
 */
export function useAcmeSimulator(options: AcmeSimulatorOptions = {}): AcmeSimulator {
  let sim: RunningSimulator | undefined;
  let switches: Switches | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ shops: TEST_SHOPS, switches: options.switches ?? {} });
    switches = sim.switches();
  });
  afterAll(() => sim?.close());
  beforeEach(async () => {
    await sim?.reset();
    if (switches !== undefined) sim?.setSwitches(switches);
  });
  const started = (): RunningSimulator => {
    if (sim === undefined) throw new Error("the simulator is read before beforeAll started it");
    return sim;
  };
  return {
    get sim() {
      return started();
    },
    get config() {
      return { "shipping:apiKey": ACME_KEY, "shipping:baseUrl": started().baseUrl };
    },
    withSwitches(patch) {
      started().setSwitches(patch);
      return started();
    },
    liveHooks(shop = "acme") {
      return started()
        .subscriptions(shop)
        .map((s) => `${s.hook}=${s.url}`)
        .sort();
    },
  };
}

/**
 * A maker of clients of acme's key on the file's simulator, with `defaults` under each call's options; every
 * client made is closed after the file.
 */
export function useAcmeClients(
  acme: AcmeSimulator,
  defaults: Partial<ShippingClientOptions> = {},
): (options?: Partial<ShippingClientOptions>) => ShippingClient {
  const made: ShippingClient[] = [];
  afterAll(() => Promise.all(made.map((c) => c.close())));
  return (options = {}) => {
    const client = new ShippingClient({
      baseUrl: acme.sim.baseUrl,
      apiKey: ACME_KEY,
      ...defaults,
      ...options,
    });
    made.push(client);
    return client;
  };
}
