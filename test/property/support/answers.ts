import type { IncomingHttpHeaders } from "node:http";
import type { MalformedRequest } from "./malformed";

/** What came back for one request: an answer, or the client-side error when none came. */
export type Reply = { status: number; headers: IncomingHttpHeaders; text: string } | { error: string };

/** A request whose answer broke a rule, and which rule. */
export interface Violation {
  readonly kind: string;
  readonly request: string;
  readonly problem: string;
}

function shapeProblem(status: number, headers: IncomingHttpHeaders, text: string): string | undefined {
  if (!String(headers["content-type"]).startsWith("application/json"))
    return `content-type ${headers["content-type"]}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${text.slice(0, 80)}`;
  }
  const { message, request_id, errors } = body as {
    message?: unknown;
    request_id?: unknown;
    errors?: unknown;
  };
  if (typeof message !== "string" || message === "") return "no message";
  if (typeof request_id !== "string" || headers["x-request-id"] !== request_id)
    return "request_id missing or not in x-request-id";
  if (!Array.isArray(errors) || errors.length === 0) return "no errors[]";
  for (const item of errors as Array<Record<string, unknown>>) {
    if (item.status !== status) return `errors[].status ${String(item.status)} != ${status}`;
    if (typeof item.code !== "number" || typeof item.title !== "string" || typeof item.message !== "string")
      return "errors[] item lacks code, title or message";
  }
  return undefined;
}

/**
 * Why the answer to a malformed request is wrong, or undefined: it must be a 4xx (never a 5xx, a success
 * or no answer at all) and, except for HEAD (which has no body), carry the JSON error shape with the same
 * request id in the body and in `x-request-id`.
 */
export function checkAnswer(request: MalformedRequest, reply: Reply): Violation | undefined {
  const shown = `${request.method} ${request.path.slice(0, 80)} ${request.body?.slice(0, 80) ?? ""}`;
  const violation = (problem: string): Violation => ({ kind: request.kind, request: shown, problem });
  if ("error" in reply) return violation(`no answer: ${reply.error}`);
  if (reply.status < 400 || reply.status > 499) return violation(`status ${reply.status}`);
  if (request.method === "HEAD") return undefined;
  const problem = shapeProblem(reply.status, reply.headers, reply.text);
  return problem === undefined ? undefined : violation(`${reply.status}: ${problem}`);
}
