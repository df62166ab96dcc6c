/**
 * The gRPC channel option that gives every client its own connections instead of sharing them through
 * grpc-js's process-wide subchannel pool.
 */
const LOCAL_SUBCHANNEL_POOL = "grpc.use_local_subchannel_pool";

/** What to print when {@link isolateInlineProgramConnections} returns false. */
export const ISOLATION_UNAVAILABLE =
  "warning: this @pulumi/pulumi does not expose its gRPC client options (3.220 and later do), so the inline programs of this process share connections to their engines, and a program whose engine reuses an earlier engine's port can be skipped and its stack emptied: upgrade @pulumi/pulumi";

/**
 * Makes every Automation API inline program of this process open its own connections to the Pulumi engine.
 *
 * Why: an inline program connects to the engine of each `pulumi up` at a fresh loopback port, and the
 * Node.js SDK (3.x, inline programs only) never closes those clients. grpc-js shares connections between
 * clients of one address through a process-wide pool. When a later engine happens to listen on a port an
 * earlier one used, its program gets the pooled connection to the dead engine and its first call fails at
 * once with "14 UNAVAILABLE: No connection established". When that call is the program's first one
 * (`SetRootResource`), the SDK takes UNAVAILABLE for an engine shutting down: the program never runs, the
 * run is reported successful, and the engine deletes every resource of the stack while `up` succeeds. The
 * longer a process runs programs (a test suite, a fleet runner), the likelier a reused port is.
 *
 * Call it once, before the first operation; it changes the SDK's client options for the whole process.
 * Returns false when the SDK does not expose them (releases before 3.220; then nothing changed).
 */
export function isolateInlineProgramConnections(): boolean {
  try {
    // The SDK's options objects of its engine and resource-monitor clients: internal. Newer releases build
    // the clients from `grpcClientOptions`, older ones from `grpcChannelOptions`. Clients created after this
    // call use the option.
    const settings = require("@pulumi/pulumi/runtime/settings") as Record<
      "grpcClientOptions" | "grpcChannelOptions",
      Record<string, unknown> | undefined
    >;
    const options = [settings.grpcClientOptions, settings.grpcChannelOptions].filter((o) => o !== undefined);
    for (const o of options) o[LOCAL_SUBCHANNEL_POOL] = 1;
    return options.length > 0;
  } catch {
    return false;
  }
}
