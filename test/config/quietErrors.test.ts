import { describe, expect, it } from "vitest";
import { ShippingConfigError } from "../../provider/errors";
import { QuietErrors } from "../../provider/operations/quietErrors";

/** A console whose error lines are collected, as the dynamic-provider host's stderr. */
function host() {
  const printed: unknown[][] = [];
  const target = { error: (...data: unknown[]) => printed.push(data) };
  return { target, printed, quiet: new QuietErrors(target) };
}

/** What the host does with an operation's error: print it with its stack, then hand it to the engine. */
async function asTheHostDoes(target: { error: (...data: unknown[]) => void }, run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    target.error(`${error}: ${(error as Error).stack}`);
  }
}

describe("QuietErrors: the host does not print again what the engine shows on the resource", () => {
  it("drops the host's line for an error of this package, once, and keeps every other line", async () => {
    const { target, printed, quiet } = host();
    const refuse = quiet.wrap(async () => {
      throw new ShippingConfigError("shipping:apiKey", "refused");
    });
    await asTheHostDoes(target, refuse);
    expect(printed).toEqual([]);
    target.error("a line of the program's own");
    const failure = new ShippingConfigError("shipping:apiKey", "refused");
    target.error(`${failure}: ${failure.stack}`); // not thrown by a wrapped operation: printed
    expect(printed).toHaveLength(2);
  });

  it("prints errors that are not this package's (a bug shows its stack)", async () => {
    const { target, printed, quiet } = host();
    await asTheHostDoes(
      target,
      quiet.wrap(async () => {
        throw new TypeError("x is undefined");
      }),
    );
    expect(String(printed[0]?.[0])).toMatch(/^TypeError: x is undefined: TypeError: x is undefined\n\s+at /);
  });
});
