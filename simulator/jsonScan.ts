/**
 * JSON text read without building it: an exact check of the JSON grammar (RFC 8259, what `JSON.parse`
 * accepts), and walks over an object's members and an array's elements that answer where each value's
 * text lies, so a large body's parts are parsed one at a time (a 1 MiB body of 349,000 `{}` items is never
 * 349,000 objects at once). Iterative: a value nested 100,000 deep costs a stack of numbers, not frames.
 */

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Characters a string must escape (below U+0020). */
const FIRST_PLAIN_CHAR = 0x20;
/** A JSON number, anchored at `lastIndex`. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A `\u` escape's four hex digits, anchored at `lastIndex`. */
const HEX4 = /[0-9a-fA-F]{4}/y;
/** The characters that may follow a backslash besides `u`. */
const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const LITERALS = ["true", "false", "null"] as const;

/** The index of the first character at or after `i` that is not JSON whitespace. */
export function skipSpace(text: string, i: number): number {
  let at = i;
  for (; at < text.length; at += 1) {
    const c = text.charCodeAt(at);
    if (c !== SPACE && c !== TAB && c !== LF && c !== CR) break;
  }
  return at;
}

/** The index after the string that starts at `i` (a `"`), or -1 when it is not a valid JSON string. */
export function stringEnd(text: string, i: number): number {
  for (let at = i + 1; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) return at + 1;
    if (c < FIRST_PLAIN_CHAR) return -1;
    if (c !== BACKSLASH) {
      at += 1;
      continue;
    }
    const next = text.charCodeAt(at + 1);
    if (SIMPLE_ESCAPES.has(next)) at += 2;
    else if (next === 0x75) {
      HEX4.lastIndex = at + 2;
      if (!HEX4.test(text)) return -1;
      at += 6;
    } else return -1;
  }
  return -1;
}

/** The index after the number or literal that starts at `i`, or -1 when there is none. */
function primitiveEnd(text: string, i: number): number {
  for (const literal of LITERALS) if (text.startsWith(literal, i)) return i + literal.length;
  NUMBER.lastIndex = i;
  return NUMBER.test(text) ? NUMBER.lastIndex : -1;
}

/** The index after an object member's `"key" :` at `i` (whitespace after it skipped), or -1. */
function keyEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== QUOTE) return -1;
  const end = skipSpace(text, stringEnd(text, i));
  if (end < 0 || text.charCodeAt(end) !== COLON) return -1;
  return skipSpace(text, end + 1);
}

/** Where a value's text ends when it opens a container: the container is pushed and reading goes inside. */
type Step = { at: number; opened: boolean };

/** Read the value at `i`: a scalar's end, or the inside of a container it opens (pushed on `stack`). */
function readValue(text: string, i: number, stack: number[]): Step | undefined {
  const c = text.charCodeAt(i);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    const end = c === QUOTE ? stringEnd(text, i) : primitiveEnd(text, i);
    return end < 0 ? undefined : { at: end, opened: false };
  }
  const inside = skipSpace(text, i + 1);
  const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
  if (text.charCodeAt(inside) === close) return { at: inside + 1, opened: false };
  stack.push(c);
  if (c === OPEN_ARRAY) return { at: inside, opened: true };
  const value = keyEnd(text, inside);
  return value < 0 ? undefined : { at: value, opened: true };
}

/**
 * Whether `text` is one JSON value with nothing but whitespace around it, exactly as `JSON.parse` decides
 * (no BOM, no trailing comma, no lone `-`, strings without raw control characters).
 */
export function isJsonText(text: string): boolean {
  const stack: number[] = [];
  let at = skipSpace(text, 0);
  for (;;) {
    const step = readValue(text, at, stack);
    if (step === undefined) return false;
    at = step.at;
    if (step.opened) continue;
    // After a complete value: a comma (then the next element or member), a closing bracket, or the end.
    for (;;) {
      at = skipSpace(text, at);
      const open = stack.at(-1);
      if (open === undefined) return at === text.length;
      const c = text.charCodeAt(at);
      if (c === COMMA) {
        at = skipSpace(text, at + 1);
        if (open === OPEN_OBJECT) at = keyEnd(text, at);
        if (at < 0) return false;
        break;
      }
      if (c !== (open === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) return false;
      stack.pop();
      at += 1;
    }
  }
}

/** The index after the value that starts at `i` in text `isJsonText` accepted. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) return primitiveEnd(text, i);
  let depth = 0;
  for (let at = i; at < text.length; ) {
    const d = text.charCodeAt(at);
    if (d === QUOTE) {
      at = stringEnd(text, at);
      continue;
    }
    if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth += 1;
    else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) depth -= 1;
    at += 1;
    if (depth === 0) return at;
  }
  return text.length;
}

/** Where one value lies in the text: from `start` to before `end`. */
interface Span {
  start: number;
  end: number;
}

/** What kind of JSON value starts at `span.start`. */
export function kindAt(text: string, at: number): "object" | "array" | "other" {
  const c = text.charCodeAt(at);
  return c === OPEN_OBJECT ? "object" : c === OPEN_ARRAY ? "array" : "other";
}

/** The elements of the array at `i` in checked text, in order, each as a span. */
export function* elements(text: string, i: number): Generator<Span> {
  let at = skipSpace(text, i + 1);
  if (text.charCodeAt(at) === CLOSE_ARRAY) return;
  for (;;) {
    const end = valueEnd(text, at);
    yield { start: at, end };
    at = skipSpace(text, end);
    if (text.charCodeAt(at) !== COMMA) return;
    at = skipSpace(text, at + 1);
  }
}

/** The members of the object at `i` in checked text, in order, each as its decoded key and value span. */
function* members(text: string, i: number): Generator<Span & { key: string }> {
  let at = skipSpace(text, i + 1);
  if (text.charCodeAt(at) === CLOSE_OBJECT) return;
  for (;;) {
    const keyStop = stringEnd(text, at);
    const key = JSON.parse(text.slice(at, keyStop)) as string;
    const start = skipSpace(text, skipSpace(text, keyStop) + 1);
    const end = valueEnd(text, start);
    yield { key, start, end };
    at = skipSpace(text, end);
    if (text.charCodeAt(at) !== COMMA) return;
    at = skipSpace(text, at + 1);
  }
}

/** The value of the last member named `key` (as `JSON.parse` keeps the last of duplicate keys), if any. */
export function lastMember(text: string, objectAt: number, key: string): Span | undefined {
  let found: Span | undefined;
  for (const member of members(text, objectAt)) if (member.key === key) found = member;
  return found;
}

/**
 * The value at `span`, parsed, with arrays and objects cut once about `budgetChars` characters of text
 * are taken (their first elements and members kept), and whether anything was cut: enough of a large body
 * to show its start without building all of it. A container nested `MAX_CUT_DEPTH` deep is parsed whole
 * only when it fits the budget left; a larger one is kept as the string `"[…]"` or `"{…}"`, with `cut: true`.
 */
export function parsedStart(text: string, span: Span, budgetChars: number): { value: unknown; cut: boolean } {
  return cutValue(text, span, budgetChars, 0);
}

/** Nesting below which parsedStart cuts containers; deeper, a container over the budget is a placeholder. */
const MAX_CUT_DEPTH = 8;

function cutValue(text: string, span: Span, budget: number, depth: number): { value: unknown; cut: boolean } {
  const kind = kindAt(text, span.start);
  if (span.end - span.start <= budget || kind === "other")
    return { value: JSON.parse(text.slice(span.start, span.end)), cut: false };
  // Too deep to cut further and larger than the budget: a placeholder, never a parse of the whole container
  // (a 1 MiB array nested 9 deep would otherwise be built whole, 349,000 objects).
  if (depth >= MAX_CUT_DEPTH) return { value: kind === "array" ? "[…]" : "{…}", cut: true };
  let left = budget;
  let cut = false;
  const take = (part: Span): unknown => {
    const inner = cutValue(text, part, left, depth + 1);
    left -= part.end - part.start;
    cut ||= inner.cut;
    return inner.value;
  };
  if (kind === "array") {
    const list: unknown[] = [];
    for (const element of elements(text, span.start)) {
      if (left <= 0) return { value: list, cut: true };
      list.push(take(element));
    }
    return { value: list, cut };
  }
  const object: Record<string, unknown> = {};
  for (const member of members(text, span.start)) {
    if (left <= 0) return { value: object, cut: true };
    Object.defineProperty(object, member.key, {
      value: take(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { value: object, cut };
}
