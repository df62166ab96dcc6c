/** Engine-test scenarios: simulators closed after each test, and stacks whose declarations a test edits. */
import type { RunningSimulator } from "../../simulator";
import { type Declaration, declarationsProgram, OutputLog, sandbox, stackIn } from "./engine";
import { acmeStackConfig } from "./shops";

/** A simulator of the test shops (acme: shop_id 1, two read-write keys; globex: shop_id 2), closed after the test. */
export { service as simulator } from "./services";

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
