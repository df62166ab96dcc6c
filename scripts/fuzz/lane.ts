/**
 * One lane of the fuzzer: a shop of its own, a keep-alive raw connection, and a model of the shop's
 * subscriptions that changes only through answered 2xx writes. After every exchange the shop's state must
 * equal the model, the answer must not be a 5xx, a 4xx must carry the JSON error shape, and a request
 * invalid by construction must get a 4xx.
 */
import type { RunningSimulator } from "../../simulator";
import { paddedBody } from "./badParts";
import { type FuzzRequest, PLACEHOLDERS } from "./grammar";
import { RawConnection, type RawReply } from "./rawClient";

/** Keys and ids a lane fills into placeholders. */
interface LaneContext {
  readonly shop: string;
  readonly key: string;
  readonly readOnlyKey: string;
  /** Ids of the fixed other shop. */
  readonly otherIds: readonly number[];
  readonly host: string;
  readonly port: number;
}

/** A broken rule, with the request (as sent) that broke it. */
export interface Violation {
  readonly kind: string;
  readonly problem: string;
  /** The bytes sent (latin1, truncated), a runnable reproduction with `nc`. */
  readonly request: string;
}

/** How long one exchange may take before it counts as "no answer", in milliseconds. */
const EXCHANGE_TIMEOUT_MS = 15_000;
const SHOWN_BYTES = 600;
const NEVER_ISSUED_ID = "999999999";

type Entry = { id: number; url: string };
const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");

function errorShapeProblem(reply: RawReply): string | undefined {
  if (!String(reply.headers["content-type"]).startsWith("application/json"))
    return `content-type ${reply.headers["content-type"]}`;
  let body: { message?: unknown; request_id?: unknown; errors?: unknown };
  try {
    body = JSON.parse(reply.body);
  } catch {
    return `body is not JSON: ${reply.body.slice(0, 80)}`;
  }
  if (typeof body.message !== "string" || body.message === "") return "no message";
  if (typeof body.request_id !== "string" || reply.headers["x-request-id"] !== body.request_id)
    return "request_id missing or not in x-request-id";
  if (!Array.isArray(body.errors) || body.errors.length === 0) return "no errors[]";
  for (const item of body.errors as Array<Record<string, unknown>>) {
    if (item.status !== reply.status) return `errors[].status ${String(item.status)} != ${reply.status}`;
    if (typeof item.code !== "number" || typeof item.title !== "string" || typeof item.message !== "string")
      return "errors[] item lacks code, title or message";
  }
  return undefined;
}

/** The ids a DELETE target names, read independently of the simulator (digits may be percent-encoded). */
function targetIds(target: string): number[] {
  const path = target.replace(/^[a-z]+:\/\/[^/]*/i, "").split("?")[0] ?? "";
  const segment = path.slice(path.lastIndexOf("/", path.length - 2) + 1).replace(/\/$/, "");
  return segment
    .replace(/%3([0-9])/gi, "$1")
    .split(";")
    .map(Number);
}

/** A lane: sends its requests one after another and checks each answer and the state after it. */
export class Lane {
  private readonly model = new Map<string, Entry>();
  private connection: RawConnection | undefined;

  /** A lane over `context.shop` of `sim`. */
  constructor(
    private readonly sim: RunningSimulator,
    private readonly context: LaneContext,
  ) {}

  /** Close the lane's connection. */
  close(): void {
    this.connection?.close();
    this.connection = undefined;
  }

  private ownIds(): number[] {
    return [...this.model.values()].map((e) => e.id).sort((a, b) => a - b);
  }

  private fill(text: string): string {
    const own = this.ownIds();
    const c = this.context;
    return text
      .replaceAll(b64(PLACEHOLDERS.key), b64(c.key))
      .replaceAll(b64(PLACEHOLDERS.readOnlyKey), b64(c.readOnlyKey))
      .replaceAll(PLACEHOLDERS.key, c.key)
      .replaceAll(PLACEHOLDERS.readOnlyKey, c.readOnlyKey)
      .replaceAll(PLACEHOLDERS.ownIds, own.length > 0 ? own.join(";") : NEVER_ISSUED_ID)
      .replaceAll(PLACEHOLDERS.ownId, String(own[0] ?? NEVER_ISSUED_ID))
      .replaceAll(PLACEHOLDERS.otherIds, c.otherIds.join(";"))
      .replaceAll(PLACEHOLDERS.authority, `${c.host}:${c.port}`);
  }

  /** The bytes of `request` for this lane, and its target with placeholders filled in. */
  serialize(request: FuzzRequest): { bytes: Buffer; target: string; body: Buffer } {
    const target = this.fill(request.target);
    const body =
      request.padTo !== undefined
        ? Buffer.from(paddedBody(request.padTo))
        : request.bytes !== undefined
          ? Buffer.from(request.bytes)
          : Buffer.from(request.body ?? "", "utf8");
    const lines = [`${request.method} ${target} HTTP/1.1`];
    const authority = `${this.context.host}:${this.context.port}`;
    if (request.host !== "none") lines.push(`host: ${authority}`);
    if (request.host === "two") lines.push("host: other.example");
    if (request.host === "invalid") lines[1] = "host: a b/c@d:99999999";
    for (const [name, value] of request.headers) lines.push(`${name}: ${this.fill(value)}`);
    let payload = request.framing === "none" ? Buffer.alloc(0) : body;
    if (request.framing === "length" && (body.length > 0 || request.method === "POST"))
      lines.push(`content-length: ${body.length}`);
    if (request.framing === "short") lines.push(`content-length: ${body.length + 16}`);
    if (request.framing === "chunked") {
      lines.push(`transfer-encoding: ${request.transferEncoding ?? "chunked"}`);
      const half = Math.floor(body.length / 2);
      const chunks = [body.subarray(0, half), body.subarray(half)].filter((c) => c.length > 0);
      payload = Buffer.concat([
        ...chunks.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n")]),
        Buffer.from("0\r\n\r\n"),
      ]);
    }
    const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
    return { bytes: Buffer.concat([head, payload]), target, body };
  }

  /** Send one request and check everything; answers the violation, if any. */
  async send(request: FuzzRequest, statuses: Map<number, number>): Promise<Violation | undefined> {
    const { bytes, target, body } = this.serialize(request);
    const shown = bytes.subarray(0, SHOWN_BYTES).toString("latin1");
    const violation = (problem: string): Violation => ({ kind: request.kind, problem, request: shown });
    if (this.connection === undefined || !this.connection.usable) {
      this.connection?.close();
      this.connection = await RawConnection.open(this.context.host, this.context.port);
    }
    const outcome = await this.connection.exchange(bytes, request.method === "HEAD", EXCHANGE_TIMEOUT_MS);
    if ("error" in outcome) {
      this.close();
      return violation(`no answer: ${outcome.error}`);
    }
    const reply = outcome.reply;
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    if (reply.closing) this.close();
    if (reply.status >= 500 && reply.status !== request.expectStatus)
      return violation(`status ${reply.status}: ${reply.body.slice(0, 200)}`);
    if (request.expectStatus !== undefined && reply.status !== request.expectStatus)
      return violation(`status ${reply.status}, not ${request.expectStatus}`);
    if (reply.status >= 400 && request.method !== "HEAD") {
      const shape = errorShapeProblem(reply);
      if (shape !== undefined) return violation(`${reply.status}: ${shape}`);
    }
    if (request.mustFail && reply.status < 400)
      return violation(`status ${reply.status} to an invalid request`);
    if (reply.status < 300) this.apply(request.method, target, body, reply);
    return this.stateProblem(violation);
  }

  /** Apply an answered 2xx write to the model. */
  private apply(method: string, target: string, body: Buffer, reply: RawReply): void {
    if (method === "POST") {
      type Sent = { data: { webhook_subscriptions: Array<{ hook: string; url: string }> } };
      const items = (JSON.parse(body.toString("utf8")) as Sent).data.webhook_subscriptions;
      const ids = (JSON.parse(reply.body) as { data: { ids: Array<{ id: number }> } }).data.ids;
      items.forEach((item, i) => {
        this.model.set(item.hook, { id: ids[i]?.id ?? -1, url: item.url });
      });
    }
    if (method === "DELETE") {
      const gone = new Set(targetIds(target));
      for (const [hook, entry] of this.model) if (gone.has(entry.id)) this.model.delete(hook);
    }
  }

  private stateProblem(violation: (problem: string) => Violation): Violation | undefined {
    const actual = this.sim
      .subscriptions(this.context.shop)
      .map((s) => `${s.hook} ${s.id} ${s.url}`)
      .sort();
    const expected = [...this.model].map(([hook, e]) => `${hook} ${e.id} ${e.url}`).sort();
    if (JSON.stringify(actual) === JSON.stringify(expected)) return undefined;
    return violation(
      `state ${JSON.stringify(actual)} differs from the answered writes ${JSON.stringify(expected)}`,
    );
  }
}
