/**
 * JSON over client input without recursion: a body nested 100,000 levels deep is parsed by V8 without
 * trouble, but `JSON.stringify`, `structuredClone` and any recursive walk overflow the stack on it.
 */

/** A container being serialised: its keys (objects) or length (arrays), and the next position. */
interface Frame {
  value: unknown[] | Record<string, unknown>;
  keys: string[] | undefined;
  next: number;
}

function open(value: unknown[] | Record<string, unknown>): Frame {
  return { value, keys: Array.isArray(value) ? undefined : Object.keys(value), next: 0 };
}

/**
 * Serialise a value produced by `JSON.parse` as compact JSON text, passing every string (keys included)
 * through `mapString` first. Iterative: any depth works. Stops early once the text is longer than
 * `limitChars` (the answer is then longer than the limit and incomplete). Values JSON.parse never produces
 * (undefined, functions, cycles) are not supported.
 */
export function stringifyJson(
  value: unknown,
  mapString: (text: string) => string = (t) => t,
  limitChars = Number.POSITIVE_INFINITY,
): string {
  const out: string[] = [];
  let written = 0;
  const emit = (text: string): void => {
    out.push(text);
    written += text.length;
  };
  const stack: Frame[] = [];
  let pending: unknown = value;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      if (typeof pending === "string") emit(JSON.stringify(mapString(pending)));
      else if (typeof pending === "object" && pending !== null) {
        emit(Array.isArray(pending) ? "[" : "{");
        stack.push(open(pending as unknown[] | Record<string, unknown>));
      } else emit(JSON.stringify(pending) ?? "null");
    }
    const frame = stack[stack.length - 1];
    if (frame === undefined || written > limitChars) return out.join("");
    const size = frame.keys === undefined ? (frame.value as unknown[]).length : frame.keys.length;
    if (frame.next >= size) {
      emit(frame.keys === undefined ? "]" : "}");
      stack.pop();
      continue;
    }
    if (frame.next > 0) emit(",");
    if (frame.keys === undefined) pending = (frame.value as unknown[])[frame.next];
    else {
      const key = frame.keys[frame.next] as string;
      emit(JSON.stringify(mapString(key)));
      emit(":");
      pending = (frame.value as Record<string, unknown>)[key];
    }
    frame.next += 1;
    hasPending = true;
  }
}

/** Longest text of a value shown in an error message, in characters. */
const SHOWN_VALUE_CHARS = 100;

/**
 * A number as the client may have sent it: JSON.parse reads `1e99999` as Infinity (JSON.stringify would say
 * null) and `9007199254740993` as 9007199254740992, so those are described, not shown as another value.
 */
function describeNumber(value: number): string {
  if (!Number.isFinite(value))
    return `a number too large for a double (read as ${value < 0 ? "-" : ""}Infinity)`;
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    return `a number beyond 2^53 (read as ${value}, not necessarily the digits sent: such numbers lose precision)`;
  return String(value);
}

/** A short description of a client value for an error message: strings quoted and cut, containers named. */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return describeNumber(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    const shown = value.length > SHOWN_VALUE_CHARS ? `${value.slice(0, SHOWN_VALUE_CHARS)}...` : value;
    return JSON.stringify(shown);
  }
  return JSON.stringify(value) ?? String(value);
}

/** Whether a value produced by `JSON.parse` nests containers more than `maxDepth` levels deep (iterative). */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== "object" || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth });
  }
  return false;
}
