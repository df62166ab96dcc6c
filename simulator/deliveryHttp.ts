/**
 * One delivery attempt over HTTPS (undici): POST the body, wait at most the timeout for the answer, keep
 * the start of the answer's body, and say plainly what went wrong when nothing came back.
 */
import { readFileSync } from "node:fs";
import * as tls from "node:tls";
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

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of the file NODE_EXTRA_CA_CERTS names (none when unset or unreadable: Node warned then). */
function extraCaCertsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file === undefined || file === "") return [];
  try {
    return readFileSync(file, "latin1").match(PEM_CERTIFICATE) ?? [];
  } catch {
    return [];
  }
}

/**
 * What Node trusts by default: `tls.getCACertificates("default")` where Node has it (bundled roots,
 * NODE_EXTRA_CA_CERTS, and the OS store when node runs with --use-system-ca); otherwise Node's bundled Mozilla
 * roots (`tls.rootCertificates`) plus the certificates of NODE_EXTRA_CA_CERTS (read from `env`). `getCACertificates`
 * is Node's own where it has one; `null` asks for the second way (the tests ask both on every Node).
 */
export function defaultRoots(
  env: NodeJS.ProcessEnv = process.env,
  getCACertificates: ((type: "default") => string[]) | null | undefined = (
    tls as { getCACertificates?: (type: "default") => string[] }
  ).getCACertificates,
): string[] {
  if (typeof getCACertificates === "function") return getCACertificates("default");
  return [...tls.rootCertificates, ...extraCaCertsFromEnv(env)];
}

/**
 * A connection pool for deliveries that trusts what Node trusts by default (`defaultRoots`) plus `extraCa`
 * (PEM): added, never instead, so a receiver trusted through NODE_EXTRA_CA_CERTS stays reachable. One TLS
 * context is built here and shared: given `ca` instead, every new connection (each one after a timeout)
 * would parse the ~140 roots again into a context of its own, and the soak saw RSS climb by tens of MB.
 */
export function deliveryAgent(extraCa: string | undefined, env: NodeJS.ProcessEnv = process.env): Agent {
  if (extraCa === undefined) return new Agent();
  return new Agent({
    connect: { secureContext: tls.createSecureContext({ ca: [...defaultRoots(env), extraCa] }) },
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
