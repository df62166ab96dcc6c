/** The shape of one request the HTTP fuzzer generates (`grammar.ts`) and sends (`rawClient.ts`, `lane.ts`). */

/** How the body is framed on the wire. */
export type Framing = "length" | "chunked" | "short" | "none";

/** One generated request. */
export interface FuzzRequest {
  readonly kind: string;
  readonly method: string;
  /** The request target, with placeholders (see PLACEHOLDERS). */
  readonly target: string;
  /** Header lines in order, with placeholders; Host is added by `serialize` as `host` says. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly host: "one" | "none" | "two" | "invalid";
  /** Body text (UTF-8), or bytes when `bytes` is set (e.g. invalid UTF-8). */
  readonly body?: string;
  readonly bytes?: readonly number[];
  /** A valid create request padded to this many bytes, built when sent. */
  readonly padTo?: number;
  readonly framing: Framing;
  /** The Transfer-Encoding of a chunked framing (default "chunked"). */
  readonly transferEncoding?: string;
  /** Invalid by construction: the answer must be a 4xx (or exactly `expectStatus`). */
  readonly mustFail: boolean;
  /** The one 5xx this request must get (501 for a transfer coding the simulator cannot decode). */
  readonly expectStatus?: number;
}
