/**
 * A fourth hook is a change in contract/hooks.ts plus what is truly its own (its delivery payload in the
 * simulator): every other place that names the hooks takes them from contract/, is checked here against it, or
 * is a list written out for users that CONTRIBUTING.md names ("Where a change goes", step 4: the READMEs, the
 * receiver example, the API-call bench's budgets). The compiler lists the simulator's own fields
 * (`Record<Hook, ...>`); the TypeScript reference table is checked by test/docs/resourceReference.test.ts.
 */
import { describe, expect, it } from "vitest";
import { HOOKS } from "../../contract/hooks";
import schema from "../../provider/plugin/schema.json";
import { parseEvent } from "../../simulator/eventSchema";

describe("the hooks, as every place lists them", () => {
  it("the plugin's schema enumerates the contract's hooks, in its order", () => {
    const values = schema.types["shipping:index:Hook"].enum.map((e) => e.value);
    expect(values).toEqual([...HOOKS]);
  });

  it("the simulator has an event (a delivery payload) of every hook, and of no other", () => {
    for (const hook of HOOKS) expect(parseEvent({ kind: hook }).kind).toBe(hook);
    expect(() => parseEvent({ kind: "return_created" })).toThrow(/kind/);
  });
});
