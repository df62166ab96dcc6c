/**
 * Issue 36 item 8: the HTTP version of the request line. The simulator speaks HTTP/1.1: a request line of
 * another major version is answered 505 (RFC 9110 15.6.6) and the connection closed, logged like any refusal.
 */
import { describe, expect, it } from "vitest";
import { rawRequest } from "../../scripts/fuzz/rawClient";
import { versionProblem } from "../../simulator/protocol";
import { startSim } from "./helpers";

describe("the request line's HTTP version", () => {
  it.each([
    // [version sent, status]
    ["HTTP/1.1", 200],
    ["HTTP/1.0", 200],
    ["HTTP/2.0", 505],
    ["HTTP/3.0", 505],
    ["HTTP/0.9", 505],
    ["HTTP/9.9", 505],
    // RFC 9110 2.5 would have a 1.x above 1.1 treated as 1.1, but Node's parser (llhttp) refuses the request line
    // before the simulator sees it: a known gap, answered 400 with the JSON error body (simulator/README.md).
    ["HTTP/1.2", 400],
  ])("GET / %s is answered %i", async (version, status) => {
    const sim = await startSim();
    const host = new URL(sim.baseUrl).host;
    const outcome = await rawRequest(sim.baseUrl, `GET / ${version}\r\nHost: ${host}\r\n\r\n`, {
      timeoutMs: 5_000,
    });
    if ("error" in outcome) throw new Error(`no answer: ${outcome.error}`);
    expect(outcome.reply.status).toBe(status);
    if (status === 505) {
      expect(outcome.reply.closing).toBe(true);
      expect(JSON.parse(outcome.reply.body).errors[0].message).toContain("send HTTP/1.1 requests");
      expect(sim.requests().map((entry) => entry.status)).toEqual([505]);
    }
  });

  it.each([
    ["2.0", 505],
    ["HTTP/2.0", 505],
    ["1.1", undefined],
    ["HTTP/1.7", undefined],
    ["banana", undefined],
  ])("versionProblem(%j) is %s", (version, status) => {
    expect(versionProblem(version)?.status).toBe(status);
  });
});
