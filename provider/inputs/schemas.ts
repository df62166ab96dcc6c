import { z } from "zod";
import { callbackUrlRefusal } from "../../contract/callbackUrl";
import { HOOKS } from "../../contract/hooks";

const USE = (fix: string | undefined): string => (fix === undefined ? "" : `; use "${fix}"`);

/** How a refusal may show the URL it is about. */
export interface UrlProblemOptions {
  /**
   * The URL is a secret (a token in it): the message neither quotes it nor offers a corrected copy, and
   * says which rule it breaks only.
   */
  readonly secret?: boolean;
}

/**
 * Why a callback URL is refused, with the fix; undefined when it is fine. The rule is the API's own
 * (`contract/callbackUrl.ts`): one absolute, lowercase HTTPS URL that RFC 3986 and client URL parsers read alike,
 * so preview refuses exactly what the service would refuse (or silently call at another address).
 */
export function callbackUrlProblem(url: string, options: UrlProblemOptions = {}): string | undefined {
  const refusal = callbackUrlRefusal(url);
  if (refusal === undefined) return undefined;
  const secret = options.secret === true;
  const detail = secret ? "not shown: the URL is a secret" : refusal.detail;
  const fix = secret ? undefined : refusal.fix;
  const shown = secret ? "the URL (a secret, not shown)" : JSON.stringify(url);
  switch (refusal.kind) {
    case "not-absolute":
      return `${shown} is not an absolute URL (${detail}); write it as https://host/path`;
    case "whitespace":
      return `${shown} must not contain whitespace or control characters (${detail}; the service refuses them); remove them${USE(fix)}`;
    case "not-https":
      return `${shown} must use HTTPS${USE(fix)}`;
    case "not-lowercase":
      return `${shown} must be lowercase (the service calls it in lowercase)${USE(fix)}`;
    case "userinfo":
      return `${shown} must not carry a user name or password; put a token in the path or query instead${USE(fix)}`;
    case "ambiguous":
      return `${shown} is not one unambiguous URL: ${detail}${USE(fix)}`;
  }
}

/** A webhook callback URL: absolute, HTTPS, lowercase, no credentials. */
export const callbackUrlSchema = z.string().superRefine((url, ctx) => {
  const problem = callbackUrlProblem(url);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

/** One of the three hooks, with a message that lists them. */
export const hookSchema = z.string().refine((hook) => (HOOKS as readonly string[]).includes(hook), {
  error: (issue) => `"${String(issue.input)}" is not a hook; use one of ${HOOKS.join(", ")}`,
});

/** A shop name as used in `shipping:shops`: lowercase letters, digits, `-` and `_`. */
export const shopNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, {
  error: (issue) =>
    `"${String(issue.input)}" is not a shop name; use 1-63 lowercase letters, digits, "-" or "_" (a key of shipping:shops)`,
});
