import { describe, expect, it } from "vitest";
import { isRegistryStall } from "../package/support/registryStall";

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
