import type { OpMap, PulumiCommand } from "@pulumi/pulumi/automation";
import type { Fleet } from "./fleet";
import type { MoveResult, ShopMove } from "./moves";

/** What the runner does to each stack. */
export type FleetOperation = "up" | "preview" | "destroy";

/** The operations, for argument checks. */
export const FLEET_OPERATIONS: readonly FleetOperation[] = ["up", "preview", "destroy"];

/** How to run one operation over a fleet. */
export interface FleetRunOptions {
  readonly fleet: Fleet;
  readonly operation: FleetOperation;
  /** Most stacks running at once. */
  readonly concurrency: number;
  /**
   * Folder of the stacks' project folders (`<workRoot>/<stack>/`, each with its Pulumi.yaml and a log per
   * operation). The Pulumi engine starts the provider there, so `pulumi-shipping-webhooks` must resolve from
   * it: keep it inside the project that installed the package.
   */
  readonly workRoot: string;
  /** Backend of every stack (`file://...`, `s3://...`); undefined: the CLI's login (e.g. Pulumi Cloud). */
  readonly backendUrl?: string;
  /** Environment with `SHIPPING_SHOPS` and `PULUMI_CONFIG_PASSPHRASE`; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Only these groups (stack names); default every group of the fleet. */
  readonly only?: readonly string[];
  /** The engine's `--parallel` within each stack; default the engine's. */
  readonly parallel?: number;
  /** Refresh each stack before the operation (`--refresh`). */
  readonly refresh?: boolean;
  /** A stack still running after this many ms is cancelled and reported failed. */
  readonly stackTimeoutMs?: number;
  /** The Pulumi CLI; default `pulumi` on PATH. */
  readonly pulumiCommand?: PulumiCommand;
  /** Aborting stops starting stacks and cancels the running ones (as Ctrl-C does). */
  readonly signal?: AbortSignal;
  /** Called when a stack starts, ends or is skipped. */
  readonly onProgress?: (event: StackProgress) => void;
}

/** One stack's progress: the line the runner prints. */
export type StackProgress =
  | {
      readonly kind: "started";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly shops: number;
      readonly hooks: number;
    }
  | {
      readonly kind: "done" | "failed" | "skipped";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly result: StackResult;
    }
  | {
      /** Shops this stack records that the fleet file now puts in another group: left out of the operation. */
      readonly kind: "moving";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly moves: readonly ShopMove[];
    }
  | {
      /** One shop's move out of this stack ended (moved, waiting for the new group, or failed). */
      readonly kind: "move";
      readonly stack: string;
      readonly operation: FleetOperation;
      readonly move: MoveResult;
    };

/** How one stack ended. */
export interface StackResult {
  readonly stack: string;
  readonly status: "done" | "failed" | "skipped";
  /** Wall time of the operation, including the CLI's start. */
  readonly ms: number;
  /** The engine's resource changes by kind (`create`, `same`, `update`, `delete`, `replace`, ...). */
  readonly changes: OpMap;
  /** Why it failed or was skipped: the engine's error lines, or the runner's own check. */
  readonly error?: string;
  /** The operation's full output. */
  readonly logFile?: string;
}

/** How a run over the fleet ended. */
export interface FleetResult {
  readonly operation: FleetOperation;
  readonly concurrency: number;
  readonly ms: number;
  readonly stacks: readonly StackResult[];
  /** Shops moved out of a stack in this run (or still waiting for their new group's stack to record them). */
  readonly moves: readonly MoveResult[];
  /** Names of the stacks that failed, were skipped or failed to forget a moved shop: the run failed when any is listed. */
  readonly failed: readonly string[];
}

/** A run that cannot start (bad option, no passphrase, unreadable keys); nothing was deployed. */
export class FleetConfigError extends Error {
  override readonly name = "FleetConfigError";
}
