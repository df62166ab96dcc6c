#!/usr/bin/env node
/**
 * `pulumi-resource-shipping`: the provider plugin the Pulumi engine starts for the `shipping` package (any
 * language, `pulumi import`). It serves one {@link ShippingProvider} over gRPC on a loopback port and prints
 * the port, as the engine expects; the engine's address (its first argument) is not needed.
 */
import { DeploymentClaims, deploymentOf, engineAddressOf } from "../facts/deploymentClaims";
import { SharedDeclarations } from "../facts/deploymentDeclarations";
import { ShippingProvider } from "../operations/provider";
import { setWarningSink } from "../operations/warnings";
import { engineWarnings } from "./engineLog";
import { grpc, service } from "./sdk";
import { providerService } from "./service";

/** Starts the server and prints its port; resolves with the port. `argv`: the plugin's arguments. */
export async function serve(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  setWarningSink(engineWarnings(engineAddressOf(argv)), { driftAtDiff: true });
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 1024 * 1024 * 400,
    "grpc.max_send_message_length": 1024 * 1024 * 400,
  });
  const deployment = deploymentOf();
  server.addService(
    service.ResourceProviderService,
    providerService(
      new ShippingProvider()
        .shareClaims(DeploymentClaims.ofProcess(deployment))
        .shareDeclarations(SharedDeclarations.ofProcess(deployment)),
    ),
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  process.stdout.write(`${port}\n`);
  return port;
}

if (require.main === module) {
  serve().catch((error: unknown) => {
    process.stderr.write(
      `pulumi-resource-shipping: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
