/** The soak's hostile clients: requests that must get a 4xx and change nothing. */
import type { Call } from "./http";
import { BODY_LIMIT_BYTES, type Context, JSON_TYPE, run, sleep, subscriptionBody } from "./scenarios";
import { authFor, INTRUDER_KEY, WRITER_SHOPS, writerKey } from "./shops";

/** `{"a":...}` nested `depth` levels, as text. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const is4xx = (s: number): boolean => s >= 400 && s < 500;
/** The body limit filled with `{}` items (349,000): once answered with a 210 MB 422 (issue 36 item 1). */
const EMPTY_ITEMS = `{"data":{"webhook_subscriptions":[${Array(Math.floor((BODY_LIMIT_BYTES - 40) / 3))
  .fill("{}")
  .join(",")}]}}`;

/** Hostile requests: none may change state or get a 5xx. */
function hostileCall(ctx: Context): [string, Call] {
  const writerAuth = authFor(writerKey(Math.floor(ctx.random() * WRITER_SHOPS)));
  const json = { ...JSON_TYPE, authorization: writerAuth };
  const token = Buffer.from(writerKey(0)).toString("base64");
  const cases: Array<() => [string, Call]> = [
    () => [
      "bad key",
      { method: "GET", path: "/webhook_subscriptions", headers: { authorization: authFor("nope") } },
    ],
    () => [
      "glued scheme",
      { method: "GET", path: "/webhook_subscriptions", headers: { authorization: `bearer${token}` } },
    ],
    () => [
      "secret in query",
      {
        method: "GET",
        path: `/nowhere?key=${token}&k=${encodeURIComponent(writerKey(1))}`,
        headers: { [`x-${token.replace(/=/g, "")}`]: "1" },
      },
    ],
    () => [
      "malformed JSON",
      { method: "POST", path: "/webhook_subscriptions", headers: json, body: '{"data":' },
    ],
    () => [
      "prototype keys",
      {
        method: "POST",
        path: "/webhook_subscriptions",
        headers: json,
        body: '{"__proto__":{"x":1},"constructor":{},"data":{"webhook_subscriptions":[{"hook":"__proto__","url":"https://x.example"}]}}',
      },
    ],
    () => [
      "deep invalid",
      {
        method: "POST",
        path: "/webhook_subscriptions",
        headers: json,
        body: `{"data":{"webhook_subscriptions":[{"hook":${nested(50_000)},"url":"https://x.example"}]}}`,
      },
    ],
    () => [
      "over the limit",
      {
        method: "POST",
        path: "/webhook_subscriptions",
        headers: json,
        body: Buffer.alloc(BODY_LIMIT_BYTES + 10, 0x20),
      },
    ],
    () => [
      "invalid UTF-8",
      {
        method: "POST",
        path: "/webhook_subscriptions",
        headers: json,
        body: Buffer.concat([
          Buffer.from('{"data":{"webhook_subscriptions":[{"hook":"no\xff'),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('","url":"https://x.example"}]}}'),
        ]),
      },
    ],
    () => ["unknown path", { method: "GET", path: "/webhook_subscriptions/1/2/../3", headers: json }],
    () => ["wrong method", { method: "PUT", path: "/webhook_subscriptions", headers: json }],
    () => [
      "huge header",
      { method: "GET", path: "/webhook_subscriptions", headers: { ...json, "x-huge": "h".repeat(20_000) } },
    ],
    () => ["bad ids", { method: "GET", path: "/webhook_subscriptions/1;abc;%3B", headers: json }],
    () => [
      "intruder delete",
      {
        method: "DELETE",
        path: `/webhook_subscriptions/${1 + Math.floor(ctx.random() * 3_000)}`,
        headers: { ...JSON_TYPE, authorization: authFor(INTRUDER_KEY) },
      },
    ],
    () => [
      "aborted upload",
      {
        method: "POST",
        path: "/webhook_subscriptions",
        headers: json,
        body: subscriptionBody("order_status_change", "https://aborted.example"),
        abortAfter: 0.5,
      },
    ],
    () => [
      "stalled upload, then gone",
      {
        method: "POST",
        path: "/webhook_subscriptions",
        headers: json,
        body: Buffer.alloc(64 * 1024, 0x20),
        abortAfter: 0.3,
        pauseMs: 1_000,
      },
    ],
  ];
  return (cases[Math.floor(ctx.random() * cases.length)] as () => [string, Call])();
}

/** Time between two amplification requests of one amplifier, in milliseconds. */
const AMPLIFIER_EVERY_MS = 2_000;
/** Largest answer an amplification request may get, in bytes (the simulator lists 100 problems). */
const AMPLIFIED_ANSWER_MAX_BYTES = 64 * 1024;

/**
 * Loop: every AMPLIFIER_EVERY_MS, the body limit filled with `{}` items; expected a 422 of at most
 * AMPLIFIED_ANSWER_MAX_BYTES (issue 36 item 1). Paced, not in the hostile mix: each costs the simulator a
 * JSON.parse of 349,000 objects, and at the mix's rate it would be most of what the soak measured.
 */
export async function amplifier(ctx: Context): Promise<void> {
  const json = { ...JSON_TYPE, authorization: authFor(writerKey(0)) };
  while (Date.now() < ctx.deadline) {
    const call = { method: "POST", path: "/webhook_subscriptions", headers: json, body: EMPTY_ITEMS };
    const reply = await run(ctx, false, "amplification (349,000 empty items)", call, (s) => s === 422, false);
    const size = reply === undefined ? 0 : Buffer.byteLength(reply.body);
    if (size > AMPLIFIED_ANSWER_MAX_BYTES)
      ctx.stats.record(422, undefined, false, `amplification answered ${size} bytes`);
    await sleep(AMPLIFIER_EVERY_MS);
  }
}

/** Loop: hostile requests on fresh connections (some break their connection on purpose). */
export async function hostile(ctx: Context): Promise<void> {
  while (Date.now() < ctx.deadline) {
    const [what, call] = hostileCall(ctx);
    // Not timed: some are slow on purpose; an intruder's DELETE may find no id (404) or another's (403).
    await run(ctx, false, `hostile ${what}`, call, is4xx, false);
    await sleep(Math.floor(ctx.random() * 20));
  }
}
