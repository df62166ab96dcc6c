import { afterAll, beforeAll, beforeEach } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { ACME_KEY, TEST_SHOPS } from "./shops";

/** The simulator of a test file and the provider config of its default shop (acme). */
export interface AcmeSimulator {
  readonly sim: RunningSimulator;
  readonly config: Record<string, string>;
}

/**
 * Starts a simulator of {@link TEST_SHOPS} on loopback for the calling test file, reset before each test and
 * closed after the file; read its fields inside tests (they are set in `beforeAll`).
 */
export function useAcmeSimulator(): AcmeSimulator {
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ shops: TEST_SHOPS });
  });
  afterAll(() => sim?.close());
  beforeEach(() => sim?.reset());
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
  };
}
