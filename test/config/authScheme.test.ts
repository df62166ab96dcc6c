import { describe, expect, it } from "vitest";
import { type AuthScheme, AuthSchemeMemory, type AuthSchemeSetting } from "../../provider/client/authScheme";

const ORIGIN = "http://127.0.0.1:1";

describe("fallbackScheme: the one retry after a 401", () => {
  it.each<[AuthSchemeSetting, AuthScheme | undefined, AuthScheme, AuthScheme | undefined]>([
    // setting, learned before the 401 arrived, word that got the 401, retry word
    ["auto", undefined, "bearer", "basic"],
    ["auto", undefined, "basic", "bearer"],
    ["auto", "basic", "bearer", "basic"], // another request learned basic while this one was in flight
    ["auto", "bearer", "basic", "bearer"],
    ["auto", "bearer", "bearer", undefined], // the word that worked fails now: the key, not the word
    ["auto", "basic", "basic", undefined],
    ["bearer", undefined, "bearer", undefined],
    ["basic", undefined, "basic", undefined],
  ])("setting %s, learned %s, 401 to %s: retry with %s", (setting, learned, tried, retry) => {
    const memory = new AuthSchemeMemory();
    if (learned !== undefined) memory.remember("auto", ORIGIN, learned);
    expect(memory.fallback(setting, ORIGIN, tried)).toBe(retry);
  });

  it("what one origin learned does not change another's", () => {
    const memory = new AuthSchemeMemory();
    memory.remember("auto", ORIGIN, "basic");
    expect(memory.fallback("auto", "http://127.0.0.1:2", "basic")).toBe("bearer");
  });
});
