/**
 * The callback URL rule against the API's recorded verdicts (`contract/fixtures/url-refusals.json`, each row
 * citing the spec lines that decide it), not against itself: the provider's preview rule and the simulator's
 * answer over HTTP are each checked against the recorded verdict, so a change to the shared rule that refuses
 * a URL the API accepts, or accepts one it refuses, fails here whichever side it is seen from.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createResponseSchema,
  type ErrorBody,
  errorBodySchema,
  JSON_CONTENT_TYPE,
  listResponseSchema,
  USER_AGENT,
} from "../../contract/wire";
import { callbackUrlProblem } from "../../provider/inputs/schemas";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { ACME_KEY } from "../support/shops";

const ROOT = join(__dirname, "..", "..");
/** Where the spec documents are kept beside this checkout (not shipped with it). */
const SPEC_DIR = join(ROOT, "..", "shared", "spec");

const reasonName = z.enum(["https", "lowercase"]);
const citation = z.string().regex(/^(api|observed):\d+$/);
const fixtureSchema = z.strictObject({
  about: z.string(),
  sources: z.record(z.string(), z.string()),
  citations: z.record(citation, z.string().min(1)),
  refusal: z.strictObject({
    status: z.number(),
    code: z.number(),
    title: z.string(),
    spec: z.array(citation).min(1),
  }),
  acceptance: z.strictObject({ status: z.number(), spec: z.array(citation).min(1) }),
  reasons: z.record(reasonName, z.strictObject({ words: z.string(), pattern: z.string() })),
  rows: z
    .array(
      z.discriminatedUnion("verdict", [
        z.strictObject({ url: z.string(), verdict: z.literal("accepted"), spec: z.array(citation).min(1) }),
        z.strictObject({
          url: z.string(),
          verdict: z.literal("refused"),
          reasons: z.array(reasonName).min(1),
          spec: z.array(citation).min(1),
        }),
      ]),
    )
    .min(1),
});

const FIXTURE = fixtureSchema.parse(
  JSON.parse(readFileSync(join(ROOT, "contract", "fixtures", "url-refusals.json"), "utf8")),
);
const ACCEPTED = FIXTURE.rows.filter((row) => row.verdict === "accepted");
const REFUSED = FIXTURE.rows.flatMap((row) => (row.verdict === "refused" ? [row] : []));
const HOOK = "shipment_status_change";

/** Whether `message` names one of a refused row's reasons (the spec's words, as the reason's pattern). */
function namesReasons(message: string, reasons: readonly ("https" | "lowercase")[]): boolean {
  return reasons.some((reason) => new RegExp(FIXTURE.reasons[reason]?.pattern ?? "^$", "i").test(message));
}

describe("the recorded verdicts", () => {
  it("cite lines that exist and say what the row's quote says", () => {
    const cited = [
      ...FIXTURE.rows.flatMap((row) => row.spec),
      ...FIXTURE.refusal.spec,
      ...FIXTURE.acceptance.spec,
    ];
    for (const key of cited) expect(FIXTURE.citations, `citation ${key}`).toHaveProperty([key]);
    let checked = 0;
    for (const [key, quote] of Object.entries(FIXTURE.citations)) {
      const [source = "", line = "0"] = key.split(":");
      const file = join(SPEC_DIR, FIXTURE.sources[source] ?? "missing");
      if (!existsSync(file)) continue;
      const text = readFileSync(file, "utf8").split("\n")[Number(line) - 1] ?? "";
      expect(text, `${key} (${FIXTURE.sources[source]} line ${line})`).toContain(quote);
      checked++;
    }
    console.log(
      `url-refusals.json: ${FIXTURE.rows.length} rows (${REFUSED.length} refused, ${ACCEPTED.length} accepted); ` +
        `${checked} of ${Object.keys(FIXTURE.citations).length} citations checked against ${SPEC_DIR}`,
    );
    expect(REFUSED.length).toBeGreaterThan(0);
    expect(ACCEPTED.length).toBeGreaterThan(0);
  });
});

describe("the provider's preview rule (callbackUrlProblem)", () => {
  it.each(ACCEPTED.map((row) => [row.url, row.spec.join(", ")]))("accepts %j (%s)", (url) => {
    expect(callbackUrlProblem(url)).toBeUndefined();
    expect(callbackUrlProblem(url, { secret: true })).toBeUndefined();
  });

  it.each(REFUSED.map((row) => [row.url, row.spec.join(", "), row.reasons]))(
    "refuses %j (%s), naming the reason",
    (url, _spec, reasons) => {
      const problem = callbackUrlProblem(url);
      expect(problem).toBeDefined();
      expect(namesReasons(problem ?? "", reasons), problem).toBe(true);
      const secret = callbackUrlProblem(url, { secret: true });
      expect(secret).toBeDefined();
      if (url !== "") expect(secret).not.toContain(url);
    },
  );
});

describe("the simulator's answer to POST /webhook_subscriptions", () => {
  const acme = useAcmeSimulator();
  const headers = {
    authorization: `bearer ${Buffer.from(ACME_KEY).toString("base64")}`,
    "user-agent": USER_AGENT,
    "content-type": JSON_CONTENT_TYPE,
    accept: "application/json",
  };

  async function post(url: string): Promise<{ status: number; body: unknown }> {
    const body = JSON.stringify({ data: { webhook_subscriptions: [{ hook: HOOK, url }] } });
    const response = await fetch(`${acme.sim.baseUrl}/webhook_subscriptions`, {
      method: "POST",
      headers,
      body,
    });
    return { status: response.status, body: await response.json() };
  }

  it.each(ACCEPTED.map((row) => [row.url, row.spec.join(", ")]))(
    "accepts %j (%s) and lists it as posted",
    async (url) => {
      const answer = await post(url);
      expect(answer.status, JSON.stringify(answer.body)).toBe(FIXTURE.acceptance.status);
      const ids = createResponseSchema.parse(answer.body).data.ids;
      expect(ids).toHaveLength(1);
      const listing = await fetch(`${acme.sim.baseUrl}/webhook_subscriptions/${ids[0]?.id}`, { headers });
      const listed = listResponseSchema.parse(await listing.json()).data.webhook_subscriptions;
      expect(listed.map((s) => [s.hook, s.url])).toEqual([[HOOK, url]]);
    },
  );

  it.each(REFUSED.map((row) => [row.url, row.spec.join(", "), row.reasons]))(
    "refuses %j (%s) with the recorded error",
    async (url, _spec, reasons) => {
      const answer = await post(url);
      expect(answer.status, JSON.stringify(answer.body)).toBe(FIXTURE.refusal.status);
      expect(errorBodySchema.safeParse(answer.body).success).toBe(true);
      const body = answer.body as ErrorBody;
      expect(body.message).toMatch(new RegExp(`\\(request_id: ${body.request_id.replace(/\./g, "\\.")}\\)$`));
      expect(body.errors).toHaveLength(1);
      const [error] = body.errors;
      expect(error).toMatchObject({
        status: FIXTURE.refusal.status,
        code: FIXTURE.refusal.code,
        title: FIXTURE.refusal.title,
      });
      expect(error?.message).toMatch(/\burl\b/);
      expect(namesReasons(error?.message ?? "", reasons), error?.message).toBe(true);
    },
  );
});
