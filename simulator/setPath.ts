/**
 * Nested overrides of an event's payload (`set: {"meta.source": "app"}`, `shipping-api-sim trigger --set
 * meta.source=app`, as `stripe trigger --override` takes `customer:address.line1=...`): a path of field names
 * and array indexes joined by ".", starting inside one event (an element of the delivery's `data.hooks`).
 * Fields a path passes through are created as objects when absent; a path that runs into a value that is no
 * object or array, an index past an array's end, or the delivery's own envelope is refused with the reason
 * and the fix.
 */
import { describeValue } from "./jsonText";
import { setOwn } from "./records";

/** Most segments of one path (a field and 7 more fields or indexes). */
const MAX_PATH_SEGMENTS = 8;
/** Largest array index a path may name. */
const MAX_PATH_INDEX = 9_999;

const NAME = "[A-Za-z][A-Za-z0-9_]{0,63}";
/** What a name of `set` must look like: a field name, or a path of them and array indexes joined by ".". */
export const SET_PATH = new RegExp(`^${NAME}(?:\\.(?:${NAME}|\\d{1,4})){0,${MAX_PATH_SEGMENTS - 1}}$`);
/** Why a name of `set` is refused. */
export const SET_PATH_RULE = `must be a field name (a letter, then letters, digits or _, at most 64) or a path of up to ${MAX_PATH_SEGMENTS} of them and array indexes (0-${MAX_PATH_INDEX}) joined by ".", e.g. barcode, meta.source or lines.0.sku`;

/** One segment of a path: a field name, or an array index. */
type Segment = string | number;

/** The segments of a path SET_PATH accepts (indexes as numbers). */
export function pathSegments(path: string): Segment[] {
  return path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Whether a name of `set` is a path (more than one segment). */
export const isPath = (name: string): boolean => name.includes(".");

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The paths that name the delivery's envelope rather than a field of the event. */
const ENVELOPE = /^data\.hooks(\.|$)/;

/**
 * Set `value` at `path` in `payload` (one event's payload, changed in place). Answers undefined when done, or
 * why the path does not fit the payload, with the fix (the payload is then left as it was).
 */
export function setAtPath(
  payload: Record<string, unknown>,
  path: string,
  value: unknown,
): string | undefined {
  if (ENVELOPE.test(path))
    return `names the delivery's envelope {"data":{"hooks":[...]}}; a path starts inside one event of data.hooks: drop "${path.match(/^data\.hooks(\.\d+)?\.?/)?.[0]}" (e.g. ${path.replace(/^data\.hooks(\.\d+)?\.?/, "") || "status"})`;
  const segments = pathSegments(path);
  const planned: Array<() => void> = [];
  let at: unknown = payload;
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] as Segment;
    const here = segments.slice(0, i).join(".") || "the event";
    const last = i === segments.length - 1;
    const problem = stepProblem(at, segment, here, last, segments.slice(0, i + 1).join("."));
    if (problem !== undefined) return problem;
    const container = at as Record<string, unknown> | unknown[];
    if (last) {
      planned.push(() => place(container, segment, value));
      break;
    }
    const next = Object.hasOwn(container, segment)
      ? (container as Record<Segment, unknown>)[segment]
      : undefined;
    if (next === undefined && typeof segments[i + 1] === "number")
      return `${segments.slice(0, i + 1).join(".")} is absent and an index needs an array there; set it whole first (e.g. ${segments.slice(0, i + 1).join(".")}=[...]), then its items`;
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      planned.push(() => place(container, segment, created));
      at = created;
    } else at = next;
  }
  for (const step of planned) step();
  return undefined;
}

function place(container: Record<string, unknown> | unknown[], segment: Segment, value: unknown): void {
  if (Array.isArray(container)) container[segment as number] = value;
  else setOwn(container, segment as string, value);
}

/** Why `segment` cannot be taken from `at` (reached by `here`), or undefined. */
function stepProblem(
  at: unknown,
  segment: Segment,
  here: string,
  last: boolean,
  upTo: string,
): string | undefined {
  if (Array.isArray(at)) {
    if (typeof segment !== "number")
      return `${here} is an array of ${at.length} items; name an index (0-${at.length - 1}) after it, not "${segment}"`;
    const bound = last ? at.length : at.length - 1;
    if (segment > bound)
      return `${here} has ${at.length} items, so ${upTo} is past its end; use an index from 0 to ${bound}${last ? ` (${at.length} appends)` : ""}`;
    return undefined;
  }
  if (!isRecord(at))
    return `${here} is ${describeValue(at)}, and a path goes on only through an object or an array; set ${here} itself, or choose a field that holds an object`;
  if (typeof segment === "number")
    return `${here} is an object; an index (${segment}) goes into an array: name a field of it instead`;
  return undefined;
}
