import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type ConfigMap, LocalWorkspace, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import {
  ISOLATION_UNAVAILABLE,
  isolateInlineProgramConnections,
} from "../../provider/program/inlineProgramConnections";
import { pulumiCommand } from "./pulumiCli";

/** Demo passphrase of the local secrets provider; override with PULUMI_CONFIG_PASSPHRASE. */
export const DEMO_PASSPHRASE = "shipping-webhooks-demo";

/** Where and how to run an inline program. */
interface StackSpec {
  /** Project folder (the engine runs the dynamic provider from here, so it must see node_modules). */
  readonly workDir: string;
  /**
   * Folder of the `file://` backend. Absent: the folder's own Pulumi.yaml (project name, backend, project
   * config) is used as it is.
   */
  readonly backendDir?: string;
  /**
   * Any backend URL instead of a folder, for example `s3://bucket?endpoint=...` (the CLI then needs the
   * AWS_* variables in `env`). Wins over `backendDir`.
   */
  readonly backendUrl?: string;
  readonly projectName: string;
  readonly stackName: string;
  readonly program: PulumiFn;
  /** Stack config, for example `{ "shipping:apiKey": { value, secret: true } }`. */
  readonly config?: ConfigMap;
  /** Extra environment of the CLI and the provider it starts (for example an isolated PULUMI_HOME). */
  readonly env?: Record<string, string>;
}

let isolationChecked = false;

/**
 * Creates or selects a stack of an inline program (on a local `file://` backend unless told otherwise), driven
 * by the Pulumi CLI that {@link pulumiCommand} finds. Inline programs of this process get connections of their
 * own to each engine ({@link isolateInlineProgramConnections}).
 */
export async function openStack(spec: StackSpec): Promise<Stack> {
  if (!isolationChecked) {
    isolationChecked = true;
    if (!isolateInlineProgramConnections()) console.warn(ISOLATION_UNAVAILABLE);
  }
  mkdirSync(spec.workDir, { recursive: true });
  // Without a backend the project's Pulumi.yaml names file://./.pulumi-state, which must exist.
  if (spec.backendUrl === undefined) {
    mkdirSync(spec.backendDir ?? defaultBackendDir(spec.workDir), { recursive: true });
  }
  const backendUrl =
    spec.backendUrl ?? (spec.backendDir !== undefined ? `file://${spec.backendDir}` : undefined);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: spec.stackName, projectName: spec.projectName, program: spec.program },
    {
      pulumiCommand: await pulumiCommand(),
      workDir: spec.workDir,
      envVars: {
        PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? DEMO_PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "1",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        ...spec.env,
      },
      ...(backendUrl !== undefined
        ? { projectSettings: { name: spec.projectName, runtime: "nodejs", backend: { url: backendUrl } } }
        : {}),
    },
  );
  if (spec.config !== undefined) await stack.setAllConfig(spec.config);
  return stack;
}

/** A project folder's stack: its Pulumi.yaml and program, run by the CLI's Node.js language host. */
interface ProjectStackSpec {
  /** The folder holding Pulumi.yaml (with its `backend:` and `main:`). */
  readonly workDir: string;
  readonly stackName: string;
  /** Extra environment of the CLI, the program and the provider it starts. */
  readonly env?: Record<string, string>;
}

/**
 * Creates or selects a stack of the project in `workDir` (an Automation API local program): the CLI runs the
 * program with its language host exactly as `pulumi up` in that folder does.
 */
export async function openProjectStack(spec: ProjectStackSpec): Promise<Stack> {
  mkdirSync(defaultBackendDir(spec.workDir), { recursive: true });
  return LocalWorkspace.createOrSelectStack(
    { stackName: spec.stackName, workDir: spec.workDir },
    {
      pulumiCommand: await pulumiCommand(),
      envVars: {
        PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? DEMO_PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "1",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        ...spec.env,
      },
    },
  );
}

/** The default backend folder of a project: `.pulumi-state/` inside it. */
function defaultBackendDir(projectDir: string): string {
  return join(projectDir, ".pulumi-state");
}

/** Rejects when `promise` has not settled within `ms`, naming `what`; so an engine call can never hang. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
