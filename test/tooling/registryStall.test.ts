import { describe, expect, it } from "vitest";
import { isRegistryStall, retryOnRegistryStall } from "../support/registryStall";

describe("isRegistryStall: which failed consumer installs run again", () => {
  it.each([
    [
      "npm's stalled body read (the one CI met)",
      "npm error code EIDLETIMEOUT\nnpm error Invalid response body while trying to fetch https://registry.npmjs.org/@grpc%2fproto-loader: Idle timeout reached for host `registry.npmjs.org:443`",
      true,
    ],
    ["a reset connection", "npm error code ECONNRESET\nnpm error network aborted", true],
    [
      "a DNS hiccup",
      "npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org/x failed",
      true,
    ],
    ["a socket timeout", "npm error code ETIMEDOUT", true],
    [
      "pnpm's failed metadata fetch",
      "ERR_PNPM_META_FETCH_FAIL GET https://registry.npmjs.org/undici: request to ... failed",
      true,
    ],
    ["yarn's hang-up", "YN0001: RequestError: socket hang up", true],
    [
      "a package that does not exist",
      "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope",
      false,
    ],
    ["an unsupported engine", "npm error code EBADENGINE", false],
    ["a failed lifecycle script", "npm error code 1\nnpm error command failed", false],
    ["an integrity mismatch", "npm error code EINTEGRITY", false],
    ["a word that only contains a code", "XECONNRESETX", false],
  ])("%s", (_name, output, expected) => {
    expect(isRegistryStall(output)).toBe(expected);
  });
});

describe("retryOnRegistryStall: a consumer install that failed on the network runs again", () => {
  const STALL =
    "npm error code EIDLETIMEOUT\nnpm error Idle timeout reached for host `registry.npmjs.org:443`";

  /** An install that throws `messages` in turn, then succeeds; counts its runs and the retries announced. */
  async function run(messages: readonly string[]) {
    let runs = 0;
    const retried: number[] = [];
    const outcome = await retryOnRegistryStall(
      async () => {
        const message = messages[runs++];
        if (message !== undefined) throw new Error(message);
      },
      (attempt) => retried.push(attempt),
    ).then(
      () => "installed",
      (error: Error) => error.message,
    );
    return { outcome, runs, retried };
  }

  it("runs a stalled install again until it succeeds", async () => {
    expect(await run([STALL, STALL])).toEqual({ outcome: "installed", runs: 3, retried: [1, 2] });
  });

  it("gives up after three stalled attempts, with the last failure", async () => {
    expect(await run([STALL, STALL, `${STALL} (third)`, STALL])).toEqual({
      outcome: `${STALL} (third)`,
      runs: 3,
      retried: [1, 2],
    });
  });

  it("does not run again an install that failed on the package", async () => {
    const notFound = "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope";
    expect(await run([notFound])).toEqual({ outcome: notFound, runs: 1, retried: [] });
  });
});
