import { ShippingProvider } from "../../provider/operations/provider";
import { type BoundProvider, bind } from "../../provider/runtime";

/** The provider's operations as the dynamic-provider host calls them (`delete` as `deleteSubscription`). */
export type ProviderRuntime = BoundProvider;

/**
 * A new provider (as a new provider process would make: a new deployment), configured with `config` as the
 * engine would. `env` stands for the provider process's environment (default: this process's).
 */
export async function freshProvider(
  config: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProviderRuntime> {
  const runtime = bind(new ShippingProvider(env));
  await runtime.configure({ config: { get: (key: string) => config[key] } });
  return runtime;
}
