/**
 * test/program/engineUnreachable.e2e.test.ts gives an inline program an engine address where nothing listens, on
 * purpose; the SDK's own calls to it then reject unhandled. Those, and only those (the socket's name carries
 * this marker), are not errors of the run: vitest.config.mts lets them pass (it holds the same string).
 */
export const UNREACHABLE_ENGINE_MARKER = "no-engine-listens-here";
