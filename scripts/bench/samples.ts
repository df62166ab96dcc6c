import type { EngineSetting } from "./options";

/**
 * Whose provider a deployment used: this project's, the one a user would write in an afternoon, or the
 * engine's floor (a dynamic provider that calls nothing, scripts/bench/floor).
 */
export type Contender = "ours" | "naive" | "floor";

/** How the tables and the chart name `contender`. */
export function contenderLabel(contender: Contender): string {
  return contender === "floor" ? "engine floor" : contender;
}

/** Medians of `up` then `destroy` of a fleet of S shops x 3 hooks, with or without the engine. */
export interface FleetMedians {
  readonly shops: number;
  readonly resources: number;
  readonly upMs: number;
  readonly destroyMs: number;
  /** API requests the simulator logged during `up` / `destroy`. */
  readonly upCalls: number;
  readonly destroyCalls: number;
}

/** Medians of `up` then `destroy` of S shops x 3 hooks through the Pulumi engine. */
export interface DeploymentSample extends FleetMedians {
  readonly contender: Contender;
  readonly setting: EngineSetting;
  /** The same calls by HTTP method, e.g. { GET: 100, POST: 100 } (why each call: goal 4). */
  readonly upByMethod?: Readonly<Record<string, number>>;
  readonly destroyByMethod?: Readonly<Record<string, number>>;
  /** Median bytes of one resource's `__provider` output. */
  readonly providerBytes: number;
  /** Bytes of the stack's state file in the backend after `up`. */
  readonly stateBytes: number;
}

/** Medians of the plain script (no engine) making the minimum calls for the same fleet. */
export type PlainSample = FleetMedians;

/** Goal 6: one fleet as many stacks side by side versus one stack (the fleet helper's measurement). */
export interface FleetComparison {
  readonly shops: number;
  readonly stacks: number;
  readonly oneStackUpMs: number;
  readonly oneStackDestroyMs: number;
  readonly manyStacksUpMs: number;
  readonly manyStacksDestroyMs: number;
}

/** Everything one `npm run bench` measured. */
export interface BenchData {
  readonly deployments: readonly DeploymentSample[];
  readonly plain: readonly PlainSample[];
  readonly fleet?: FleetComparison | undefined;
}

/** Time per resource in ms. */
export function perResource(ms: number, resources: number): number {
  return resources > 0 ? ms / resources : Number.NaN;
}

/** The deployment of `contender` under `setting` at `shops`, if measured. */
export function findDeployment(
  data: BenchData,
  contender: Contender,
  setting: EngineSetting,
  shops: number,
): DeploymentSample | undefined {
  return data.deployments.find(
    (d) => d.contender === contender && d.setting === setting && d.shops === shops,
  );
}
