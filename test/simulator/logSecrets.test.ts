/**
 * Every variant of a credential that the simulator would accept, or that plainly encodes a key, is scrubbed
 * from the request log: a scheme word glued to the token, non-canonical base64 (padding bits, padding
 * count, the URL-safe alphabet), percent-encoding, headers named after a key, query strings, paths and
 * body strings.
 */
import { describe, expect, it } from "vitest";
import { call, startSim } from "./helpers";

const LONG_KEY = "sim_demo_rw";
const SHORT_KEY = "k1";
/** A key whose base64 holds "+" and "/" (so its URL-safe form differs). */
const SYMBOL_KEY = "k~~>?~?";
const SHOPS = [
  { name: "demo", keys: { readWrite: [LONG_KEY] } },
  { name: "short", keys: { readWrite: [SHORT_KEY] } },
  { name: "symbols", keys: { readWrite: [SYMBOL_KEY] } },
];
const b64 = (key: string): string => Buffer.from(key).toString("base64");
const percentAll = (text: string): string =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");

/** Same bytes, other base64 spelling: the last character's unused low bits set. */
function dirtyPadding(key: string): string {
  const token = b64(key).replace(/=+$/, "");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const last = alphabet.indexOf(token.at(-1) ?? "A");
  return `${token.slice(0, -1)}${alphabet[last + 1]}`;
}

/** Text of the whole log, as the control listing and the library give it. */
async function logText(sim: Awaited<ReturnType<typeof startSim>>): Promise<string> {
  const listed = await call(sim.baseUrl, "GET", "/__sim/requests");
  return `${listed.text}\n${JSON.stringify(sim.requests())}`;
}

describe("credential variants in the request log", () => {
  it("non-canonical base64 of a key decodes to the key, so the simulator accepts it", async () => {
    expect(Buffer.from(dirtyPadding(LONG_KEY), "base64").toString()).toBe(LONG_KEY);
    const sim = await startSim({ shops: SHOPS });
    const reply = await call(sim.baseUrl, "GET", "/webhook_subscriptions", {
      headers: { authorization: `bearer ${dirtyPadding(SHORT_KEY)}=` },
    });
    expect(reply.status).toBe(200);
  });

  const variants: Array<[string, (key: string) => string]> = [
    ["canonical base64", (k) => b64(k)],
    ["unpadded base64", (k) => b64(k).replace(/=+$/, "")],
    ["base64 with unused bits set", (k) => dirtyPadding(k)],
    [
      "base64 with unused bits set, padded",
      (k) => `${dirtyPadding(k)}${"=".repeat((4 - (dirtyPadding(k).length % 4)) % 4)}`,
    ],
    ["URL-safe base64", (k) => b64(k).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")],
    ["percent-encoded key", (k) => percentAll(k)],
    ["percent-encoded base64", (k) => percentAll(b64(k))],
  ];

  for (const key of [LONG_KEY, SHORT_KEY, SYMBOL_KEY]) {
    for (const [name, form] of variants) {
      it(`${name} of ${JSON.stringify(key)}: in a query, a header value, a header name, a path and a body`, async () => {
        const sim = await startSim({ shops: SHOPS });
        const secret = form(key);
        // A header name is a token (RFC 9110): forms with "/", "=" or "?" cannot be one.
        const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(secret) ? `x-${secret}` : "x-plain";
        await call(sim.baseUrl, "GET", `/webhook_subscriptions?api_key=${secret}&other=1`, {
          headers: { "x-api-key": `token ${secret}`, [headerName]: "1" },
        });
        await call(sim.baseUrl, "GET", `/webhook_subscriptions/${secret}`);
        await call(sim.baseUrl, "POST", "/webhook_subscriptions", {
          headers: { authorization: `bearer ${b64(LONG_KEY)}` },
          body: {
            data: {
              webhook_subscriptions: [
                { hook: "order_status_change", url: "https://example.com/a", note: secret },
              ],
            },
          },
        });
        const text = await logText(sim);
        expect(sim.requests()).toHaveLength(3);
        expect(text).not.toContain(key);
        // Case-insensitively: header names are logged in lower case.
        if (secret.length > 2) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
        if (headerName !== "x-plain") expect(text.toLowerCase()).not.toContain(headerName.toLowerCase());
        expect(text).toContain("[REDACTED]");
      });
    }
  }

  it("a scheme word glued to the token (no space) is not recorded as a scheme", async () => {
    const sim = await startSim({ shops: SHOPS });
    for (const value of [
      `bearer${b64(SHORT_KEY).replace(/=+$/, "")}`,
      `Basic${b64(SHORT_KEY)}`,
      `bearer:${b64(LONG_KEY)}`,
    ]) {
      const reply = await call(sim.baseUrl, "GET", "/webhook_subscriptions", {
        headers: { authorization: value },
      });
      expect(reply.status).toBe(401);
    }
    const entries = sim.requests();
    expect(entries.map((e) => [e.headers.authorization, e.authScheme])).toEqual([
      ["[REDACTED]", undefined],
      ["[REDACTED]", undefined],
      ["[REDACTED]", undefined],
    ]);
  });
});
