/** Engine-test scenarios: simulators closed after each test, and stacks whose declarations a test edits. */
import { afterEach } from "vitest";
import { type RunningSimulator, type Switches, startSimulator } from "../../simulator";
import { type Declaration, declarationsProgram, OutputLog, sandbox, stackIn } from "./engine";
import { acmeStackConfig, TEST_SHOPS } from "./shops";

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A simulator of the test shops (acme: shop_id 1, two read-write keys; globex: shop_id 2), closed after the test. */
export async function simulator(switches: Partial<Switches> = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ shops: TEST_SHOPS, switches });
  running.push(sim);
  return sim;
}

/** A stack of acme on `sim` (file backend, real CLI) whose declarations the test edits between runs. */
export async function scenario(sim: RunningSimulator, declared: Declaration[], name = "scenario") {
  const box = sandbox(name);
  const state = { declared };
  const stack = await stackIn(
    box,
    declarationsProgram(() => state.declared),
    acmeStackConfig(sim.baseUrl),
  );
  return { box, stack, state, log: new OutputLog() };
}
