import { setTimeout as realDelay } from "node:timers/promises";
import { vi } from "vitest";

/** How long {@link withoutTimers} lets the work run on loopback before it calls it stuck (a guard, no bound). */
const STUCK_AFTER_MS = 15_000;

/**
 * Runs `work` with the global setTimeout and setInterval stopped (vitest's fake timers; I/O still runs) and
 * resolves with its result: it settles only if nothing it waits on is a timer, so "it did not wait" is proved
 * without measuring how long it took. Work that waits on a timer fails naming `what` (after a guard on the real
 * clock, so that a regression fails rather than hangs).
 */
export async function withoutTimers<T>(what: string, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  const guard = new AbortController();
  try {
    return await Promise.race([
      work(),
      realDelay(STUCK_AFTER_MS, undefined, { signal: guard.signal }).then(() => {
        throw new Error(`${what} waited on a timer (${vi.getTimerCount()} pending)`);
      }),
    ]);
  } finally {
    guard.abort();
    vi.useRealTimers();
  }
}
