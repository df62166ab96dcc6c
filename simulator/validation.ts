/** Validation of API input: the POST envelope, id lists in paths, and the Accept / Content-Type headers. */

import { callbackUrlRefusal } from "../contract/callbackUrl";
import { HOOKS, type Hook, isHook } from "../contract/hooks";
import { ApiError, ERROR_CODES, type ErrorItem, ErrorItems } from "./errors";
import { elements, kindAt, lastMember, skipSpace } from "./jsonScan";
import { describeValue } from "./jsonText";

/** One validated item of a POST. */
export interface NewSubscription {
  hook: Hook;
  url: string;
}

const ITEMS = "data.webhook_subscriptions";
const HOOK_LIST = HOOKS.map((h) => `"${h}"`).join(", ");

function item(code: number, title: string, message: string): ErrorItem {
  return { status: 422, code, title, message };
}

function subscriptionError(message: string): ErrorItem {
  return item(ERROR_CODES.invalidSubscription, "Invalid subscription", message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const USE = (fix: string | undefined): string => (fix === undefined ? "" : `; use "${fix}"`);

/**
 * Why `url` is not acceptable, with the reason and the fix, or undefined when it is: one absolute, lowercase
 * HTTPS URL that RFC 3986 and client URL parsers read alike (see contract/callbackUrl.ts).
 */
export function urlProblem(url: string): string | undefined {
  const refusal = callbackUrlRefusal(url);
  if (refusal === undefined) return undefined;
  const { detail, fix } = refusal;
  switch (refusal.kind) {
    case "not-absolute":
      return `must be an absolute URL, e.g. https://example.com/hooks (${detail})`;
    case "whitespace":
      return `must be an absolute URL without whitespace or control characters (${detail})${USE(fix)}`;
    case "not-https":
      return `must use https (${detail})${USE(fix)}`;
    case "not-lowercase":
      return `must be lowercase${USE(fix)}`;
    case "userinfo":
      return `must not carry a user name or password; put a token in the path or query instead${USE(fix)}`;
    case "ambiguous":
      return `must be one unambiguous URL: ${detail}${USE(fix)}`;
  }
}

/** The path of item `index` in messages. */
const itemPath = (index: number): string => `${ITEMS}[${index}]`;

/** Check item `index`; a problem's message is built only when `errors` keeps it (see ErrorItems.full). */
function validateItem(value: unknown, index: number, errors: ErrorItems): NewSubscription | undefined {
  if (!isObject(value)) {
    if (errors.full) errors.skip();
    else errors.push(subscriptionError(`${itemPath(index)} must be an object with "hook" and "url"`));
    return undefined;
  }
  const { hook, url } = value;
  let ok = true;
  if (!isHook(hook)) {
    ok = false;
    if (errors.full) errors.skip();
    else {
      // Described, never stringified: the value is the client's (possibly huge or nested 100,000 deep).
      const got = hook === undefined ? "is missing" : `is ${describeValue(hook)}`;
      const message = `${itemPath(index)}.hook ${got}; it must be one of ${HOOK_LIST}`;
      errors.push(item(ERROR_CODES.invalidHook, "Invalid hook", message));
    }
  }
  const problem =
    typeof url !== "string"
      ? `${url === undefined ? "is missing" : "must be a string"}; it must be an https URL in lowercase`
      : urlProblem(url);
  if (problem !== undefined) {
    ok = false;
    if (errors.full) errors.skip();
    else errors.push(item(ERROR_CODES.invalidUrl, "Invalid url", `${itemPath(index)}.url ${problem}`));
  }
  return ok ? { hook: hook as Hook, url: url as string } : undefined;
}

const BODY_NOT_OBJECT = 'body must be a JSON object with a "data" object';
const DATA_NOT_OBJECT = 'data must be an object holding "webhook_subscriptions"';
const LIST_NOT_ARRAY = `${ITEMS} must be a non-empty array of {hook, url}`;

const refused = (message: string): ApiError => ApiError.many(422, [subscriptionError(message)]);

/**
 * Validate a parsed POST body `{"data":{"webhook_subscriptions":[{hook,url},...]}}` as a whole.
 * Throws one 422 ApiError listing the problems (so a POST is all-or-nothing) in order: the first
 * MAX_ERROR_ITEMS of them and how many there were.
 */
export function validateCreateBody(body: unknown): NewSubscription[] {
  if (!isObject(body)) throw refused(BODY_NOT_OBJECT);
  const data = body.data;
  if (!isObject(data)) throw refused(DATA_NOT_OBJECT);
  const list = data.webhook_subscriptions;
  if (!Array.isArray(list) || list.length === 0) throw refused(LIST_NOT_ARRAY);
  return validateItems(list);
}

/**
 * `validateCreateBody` of the JSON text `text` (which `isJsonText` accepted), with the same answer, without
 * building the body: each item of the list is parsed alone, checked and dropped, so a 1 MiB body of 349,000
 * `{}` items costs one item at a time (jsonScan.ts).
 */
export function validateCreateText(text: string): NewSubscription[] {
  const top = skipSpace(text, 0);
  if (kindAt(text, top) !== "object") throw refused(BODY_NOT_OBJECT);
  const data = lastMember(text, top, "data");
  if (data === undefined || kindAt(text, data.start) !== "object") throw refused(DATA_NOT_OBJECT);
  const list = lastMember(text, data.start, "webhook_subscriptions");
  if (list === undefined || kindAt(text, list.start) !== "array" || elements(text, list.start).next().done)
    throw refused(LIST_NOT_ARRAY);
  return validateItems(parsedElements(text, list.start));
}

function* parsedElements(text: string, arrayAt: number): Generator<unknown> {
  for (const { start, end } of elements(text, arrayAt)) yield JSON.parse(text.slice(start, end));
}

/** Check the items of a non-empty list, taken one at a time; the 422 as `validateCreateBody` describes. */
function validateItems(list: Iterable<unknown>): NewSubscription[] {
  const errors = new ErrorItems();
  const valid: Array<{ index: number; sub: NewSubscription }> = [];
  let index = 0;
  for (const value of list) {
    const sub = validateItem(value, index, errors);
    if (sub !== undefined) valid.push({ index, sub });
    index += 1;
  }
  const firstIndex = new Map<Hook, number>();
  for (const { index: i, sub } of valid) {
    const first = firstIndex.get(sub.hook);
    if (first === undefined) {
      firstIndex.set(sub.hook, i);
      continue;
    }
    errors.push(
      subscriptionError(
        `${ITEMS}[${first}] and ${ITEMS}[${i}] both have hook "${sub.hook}"; a shop has one subscription per hook, send it once`,
      ),
    );
  }
  if (errors.total > 0) throw ApiError.many(422, errors.items, errors.total);
  return valid.map(({ sub }) => sub);
}

/** Parse an id list `1;2;3` from a path; throws 400 naming the bad segment. Duplicates are dropped. */
export function parseIdList(segment: string): number[] {
  const ids: number[] = [];
  for (const part of segment.split(";")) {
    const id = /^\d+$/.test(part) ? Number(part) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      const shown = part === "" ? "an empty id" : `"${part.slice(0, 40)}"`;
      throw new ApiError(
        400,
        ERROR_CODES.malformed,
        "Malformed id list",
        `id list "${segment.slice(0, 80)}" has ${shown}; ids are positive integers separated by ";", e.g. 12;13`,
      );
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** RFC 9110 qvalue: 0 to 1 with at most three decimals. */
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;
/** How specific each media range that matches application/json is (RFC 9110 12.5.1: the most specific wins). */
const JSON_RANGES: Record<string, number> = { "application/json": 2, "application/*": 1, "*/*": 0 };

/**
 * Whether an `Accept` header admits a JSON answer: absent or empty, or the most specific range that matches
 * `application/json` has q > 0 (`application/json;q=0, application/*` refuses JSON). A range whose q is not a
 * qvalue is ignored.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  let best: { specificity: number; q: number } | undefined;
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    const specificity = JSON_RANGES[type];
    if (specificity === undefined) continue;
    const weight = params.find((p) => /^q\s*=/.test(p))?.replace(/^q\s*=\s*/, "");
    if (weight !== undefined && !QVALUE.test(weight)) continue;
    const q = weight === undefined ? 1 : Number(weight);
    if (best === undefined || specificity > best.specificity) best = { specificity, q };
    else if (specificity === best.specificity) best.q = Math.max(best.q, q);
  }
  return best !== undefined && best.q > 0;
}

/** Whether a `Content-Type` is JSON: `application/json`, optionally with `charset=utf-8` (any case). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type = "", ...params] = contentType.split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  const charset = params.find((p) => p.startsWith("charset="));
  return charset === undefined || ["utf-8", "utf8", '"utf-8"'].includes(charset.slice("charset=".length));
}
