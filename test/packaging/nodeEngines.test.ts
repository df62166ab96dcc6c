import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeNode, nodeSatisfies } from "../../scripts/lib/nodeEngines";

/** Fixed, so a failure reproduces; fast-check prints the shrunk counterexample. */
const SEED = 20_181;

const ENGINES = (
  JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as {
    engines: { node: string };
  }
).engines.node;

describe("the Node.js that npm test runs with, against package.json's engines.node", () => {
  it.each<[string, boolean]>([
    ["v20.18.1", true],
    ["v20.20.2", true],
    ["v22.0.0", true],
    ["v24.21.0", true],
    ["v20.18.0", false],
    ["v20.9.9", false],
    ["v18.20.4", false],
    ["v21.0.0-nightly", false],
  ])("%s fits >=20.18.1: %s", (version, fits) => {
    expect(nodeSatisfies(version, ">=20.18.1")).toBe(fits);
  });

  it("holds for generated versions: the floor fits, anything above it fits, the release just below does not", () => {
    const part = fc.integer({ min: 0, max: 40 });
    const version = fc.tuple(part, part, part);
    fc.assert(
      fc.property(version, version, ([a, b, c], [x, y, z]) => {
        const range = `>=${x}.${y}.${z}`;
        expect(nodeSatisfies(`v${x}.${y}.${z}`, range)).toBe(true);
        for (const above of [`v${x + 1}.0.0`, `v${x}.${y + 1}.0`, `v${x}.${y}.${z + 1}`]) {
          expect(nodeSatisfies(above, range)).toBe(true);
        }
        if (z > 0) expect(nodeSatisfies(`v${x}.${y}.${z - 1}`, range)).toBe(false);
        if (nodeSatisfies(`v${a}.${b}.${c}`, range)) {
          expect(nodeSatisfies(`v${a + 1}.${b}.${c}`, range)).toBe(true);
        } else {
          expect(nodeSatisfies(`v${x}.${y}.${z}`, `>=${a}.${b}.${c}`)).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("is checked against the range package.json declares, and this Node.js fits it", () => {
    expect(ENGINES).toBe(">=20.18.1");
    expect(describeNode(process.version, process.execPath, ENGINES)).toBe(
      `Using Node.js ${process.version} at ${process.execPath} (package.json engines.node: >=20.18.1)`,
    );
  });

  it("refuses an older Node.js, saying which range and what to install", () => {
    expect(() => describeNode("v18.19.0", "/usr/bin/node", ENGINES)).toThrow(
      "Node.js v18.19.0 at /usr/bin/node is outside package.json's engines.node (>=20.18.1): install Node.js 20.18.1 or newer and put it first on PATH.",
    );
  });

  it("refuses a range it cannot read rather than pass it unchecked", () => {
    expect(() => nodeSatisfies("v20.20.2", "^20.18.1 || >=22")).toThrow(/not of the form >=X\.Y\.Z/);
  });
});
