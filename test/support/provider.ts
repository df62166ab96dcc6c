import { vi } from "vitest";

/** The provider runtime as a fresh dynamic-provider process would load it. */
export type ProviderRuntime = typeof import("../../provider/runtime");

/**
 * Loads a fresh copy of the provider runtime (new module state: as a new provider process, that is a new
 * deployment) and configures it with `config` as the engine would.
 */
export async function freshProvider(config: Record<string, string>): Promise<ProviderRuntime> {
  vi.resetModules();
  const runtime = await import("../../provider/runtime.js");
  await runtime.configure({ config: { get: (key: string) => config[key] } });
  return runtime;
}
