import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigMap, Deployment, Stack } from "@pulumi/pulumi/automation";
import type { RunningSimulator } from "../../simulator";
import {
  type Declaration,
  declarationsProgram,
  engine,
  OutputLog,
  type Sandbox,
  sandbox,
  stackIn,
} from "./engine";
import { FAST_CLIENT } from "./faults";
import { ACME_KEY } from "./shops";

/** How an engine operation ended; never a thrown error, so callers can assert on failures too. */
export interface Outcome {
  readonly ok: boolean;
  /** The engine's error and everything it printed, when it failed. */
  readonly error: string;
  /** Everything the operation printed. */
  readonly printed: string;
  readonly durationMs: number;
  /** Stack outputs of a successful `up`. */
  readonly outputs: Record<string, unknown>;
}

/** The engine operations a test drives. */
export type Operation = "up" | "refresh" | "destroy";

/** A stack of the default shop `acme` whose program declares whatever was last `declare`d. */
export interface Project {
  readonly box: Sandbox;
  readonly stack: Stack;
  declared(): readonly Declaration[];
  declare(next: readonly Declaration[]): void;
  run(operation: Operation): Promise<Outcome>;
  /** The latest state as the backend stored it (read from its file: no CLI start, so it takes no time). */
  state(): Deployment;
}

/** Stack config of a project on `sim` with the short client limits of {@link FAST_CLIENT}. */
export function fastConfig(sim: RunningSimulator): ConfigMap {
  return {
    "shipping:apiKey": { value: ACME_KEY, secret: true },
    "shipping:baseUrl": { value: sim.baseUrl },
    "shipping:timeouts": { value: JSON.stringify(FAST_CLIENT.timeouts) },
    "shipping:retry": { value: JSON.stringify(FAST_CLIENT.retry) },
  };
}

/**
 * Opens a project in a fresh sandbox (or in `box`, to share a backend) with `config`; `env`: more environment
 * of the CLI it runs (e.g. `SHIPPING_API_KEY`, as a CI job sets it).
 */
export async function openProject(
  name: string,
  config: ConfigMap,
  box = sandbox(name),
  env: Record<string, string> = {},
): Promise<Project> {
  let declared: readonly Declaration[] = [];
  const stack = await stackIn(
    box,
    declarationsProgram(() => declared),
    config,
    env,
  );
  return {
    box,
    stack,
    declared: () => declared,
    declare(next) {
      declared = next;
    },
    run: (operation) => settle(stack, operation, `${name}: ${operation}`),
    state: () => storedState(box),
  };
}

/** Runs one engine operation on `stack` under the harness deadline and reports how it ended. */
export async function settle(stack: Stack, operation: Operation, what: string): Promise<Outcome> {
  const log = new OutputLog();
  const started = Date.now();
  try {
    let outputs: Record<string, unknown> = {};
    if (operation === "up") {
      const result = await engine(stack.up({ onOutput: log.onOutput }), what);
      outputs = Object.fromEntries(Object.entries(result.outputs).map(([key, out]) => [key, out.value]));
    } else if (operation === "refresh") {
      await engine(stack.refresh({ onOutput: log.onOutput }), what);
    } else {
      await engine(stack.destroy({ onOutput: log.onOutput }), what);
    }
    return { ok: true, error: "", printed: log.text, durationMs: Date.now() - started, outputs };
  } catch (error) {
    return {
      ok: false,
      error: `${String(error)}\n${log.text}`,
      printed: log.text,
      durationMs: Date.now() - started,
      outputs: {},
    };
  }
}

/**
 * The stack's latest checkpoint, read from the `file://` backend (`.pulumi/stacks/<project>/<stack>.json`)
 * in the shape of `stack.exportStack()`. Secrets stay encrypted; the invariants need only ids, hooks and URLs.
 */
export function storedState(box: Sandbox): Deployment {
  const file = join(box.backendDir, ".pulumi", "stacks", "e2e", "test.json");
  if (!existsSync(file)) return { version: 3, deployment: { resources: [] } };
  const checkpoint = JSON.parse(readFileSync(file, "utf8")) as { checkpoint: { latest?: unknown } };
  return { version: 3, deployment: checkpoint.checkpoint.latest ?? { resources: [] } };
}
