/**
 * Engine-test scenarios: stacks whose declarations a test edits, on the simulator of the test's file
 * (useAcmeSimulator, test/support/acmeSimulator.ts).
 */
import type { RunningSimulator } from "../../simulator";
import { type Declaration, declarationsProgram, OutputLog, sandbox, stackIn } from "./engine";
import { acmeStackConfig } from "./shops";

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
