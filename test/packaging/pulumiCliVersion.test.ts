import { describe, expect, it } from "vitest";
import { MIN_INLINE_CLI_VERSION, runsInlinePrograms } from "../../scripts/lib/pulumiCli";

describe("runsInlinePrograms: may this CLI drive inline programs for up, preview, refresh and destroy?", () => {
  it.each<[string, boolean]>([
    [MIN_INLINE_CLI_VERSION, true],
    ["v3.181.0", true],
    ["v3.248.0", true],
    ["v3.259.0", true],
    ["v3.300.1-dev.0", true],
    ["v3.180.9", false],
    ["v3.139.0", false],
    ["v2.25.2", false],
    ["v4.0.0", false],
    ["unknown", false],
    ["", false],
  ])("%s -> %s", (version, expected) => {
    expect(runsInlinePrograms(version)).toBe(expected);
  });
});
