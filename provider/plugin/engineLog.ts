/**
 * The engine's log, for the plugin's warnings: the CLI shows what a provider logs there on the stack (a
 * provider plugin's stderr it does not show). The engine's address is the plugin's first argument.
 */
import { createRequire } from "node:module";
import type * as engineGrpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import type { WarningSink } from "../operations/warnings";
import { grpc } from "./sdk";

const fromSdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));

/**
 * A sink that logs each warning to the engine at `address`; undefined without an address. A warning the
 * engine does not take goes to stderr.
 */
export function engineWarnings(address: string | undefined): WarningSink | undefined {
  if (address === undefined) return undefined;
  const rpc = fromSdk("@pulumi/pulumi/proto/engine_grpc_pb") as typeof engineGrpcTypes;
  const messages = fromSdk("@pulumi/pulumi/proto/engine_pb") as typeof engineTypes;
  const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
  return (text) => {
    const request = new messages.LogRequest().setSeverity(messages.LogSeverity.WARNING).setMessage(text);
    client.log(request, (error) => {
      if (error !== null) process.stderr.write(`${text}\n`);
    });
  };
}
