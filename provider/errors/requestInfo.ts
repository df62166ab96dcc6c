/** What was sent, with the Authorization header redacted. */
export interface RedactedRequest {
  readonly method: string;
  /** Absolute URL without credentials. */
  readonly url: string;
  /** Lower-case header names; `authorization` reads `<scheme> [REDACTED]`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Whose request it was, as messages name it (for example `shop acme`); set by the provider, not the client. */
  readonly shop?: string;
}

/** `METHOD URL`, and the shop in parentheses when the request knows it: how every message names a request. */
export function describeRequest(request: RedactedRequest): string {
  return `${request.method} ${request.url}${request.shop !== undefined ? ` (${request.shop})` : ""}`;
}

/** One entry of the API's `errors` array. */
export interface ApiErrorDetail {
  readonly status?: number;
  readonly code?: number;
  readonly title?: string;
  readonly message?: string;
}

/** What came back. */
export interface ResponseInfo {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body was JSON, else the text (truncated). */
  readonly body: unknown;
}

/** Replaces the credential part of an Authorization header value. */
export function redactAuthorization(value: string): string {
  const scheme = value.split(" ", 1)[0] ?? "";
  return `${scheme} [REDACTED]`;
}
