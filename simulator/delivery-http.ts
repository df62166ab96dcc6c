/**
 * One delivery attempt over HTTPS (undici): POST the body, wait at most the timeout for the answer, keep
 * the start of the answer's body, and say plainly what went wrong when nothing came back.
 */
import { createSecureContext, rootCertificates } from "node:tls";
import { Agent, request } from "undici";
import { RESPONSE_EXCERPT_BYTES } from "./constants";

/** What one attempt got. */
export interface AttemptOutcome {
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why there was no answer ("timeout: ..." for a timeout). */
  error?: string;
  timedOut: boolean;
  /** The start of the answer's body (UTF-8, at most RESPONSE_EXCERPT_BYTES bytes). */
  response?: string;
  durationMs: number;
}

/**
 * A connection pool for deliveries that trusts the system's CAs plus `extraCa` (PEM). One TLS context is
 * built here and shared: given `ca` instead, every new connection (each one after a timeout) would parse the
 * ~140 system roots again into a context of its own, and the soak saw RSS climb by tens of MB with it.
 */
export function deliveryAgent(extraCa: string | undefined): Agent {
  if (extraCa === undefined) return new Agent();
  return new Agent({
    connect: { secureContext: createSecureContext({ ca: [...rootCertificates, extraCa] }) },
  });
}

/** `CODE: message: cause` of a connection or TLS error. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  const code = (error as NodeJS.ErrnoException).code;
  return `${code === undefined ? error.name : code}: ${error.message}${cause}`;
}

/** The first `limit` bytes of a body; stops reading there (which closes the rest). */
async function excerpt(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

/** POST `body` to `url` once, giving the receiver `timeoutMs` to answer (the connection included). */
export async function postOnce(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  let answer: AsyncIterable<Buffer>;
  try {
    const res = await request(url, { method: "POST", headers, body, dispatcher: agent, signal });
    status = res.statusCode;
    answer = res.body;
  } catch (error) {
    if (signal.aborted) {
      return { timedOut: true, error: `timeout: no answer within ${timeoutMs} ms`, durationMs: elapsed() };
    }
    return { timedOut: false, error: describe(error), durationMs: elapsed() };
  }
  const durationMs = elapsed();
  try {
    return { status, timedOut: false, response: await excerpt(answer, RESPONSE_EXCERPT_BYTES), durationMs };
  } catch {
    // The status came; a body that broke off or came too slowly changes nothing about it.
    return { status, timedOut: false, durationMs };
  }
}
