/**
 * Inline programs must reach the engine they were started for. The SDK never closes an inline program's engine
 * clients, and grpc-js shares connections of one address process-wide, so a program whose engine listens on a
 * port an earlier engine used got the dead engine's pooled connection: "14 UNAVAILABLE: No connection
 * established" on its first call, which the SDK takes for a shutdown. It then skips the program and reports
 * success, and `up` deletes the whole stack (seen in CI's fault matrix and in the explorer). Real gRPC servers
 * on loopback and the SDK's own engine client and options; the server has no services, so a call that reaches
 * it is answered UNIMPLEMENTED.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { isolateInlineProgramConnections } from "../../provider/program/inlineProgramConnections";

const load = createRequire(__filename);
const sdkDir = load.resolve("@pulumi/pulumi");
const grpc = load(load.resolve("@grpc/grpc-js", { paths: [sdkDir] })) as typeof import("@grpc/grpc-js");
const { EngineClient } = load(load.resolve("@pulumi/pulumi/proto/engine_grpc_pb", { paths: [sdkDir] })) as {
  EngineClient: new (address: string, credentials: unknown, options: object) => EngineStub;
};
const { GetRootResourceRequest } = load(
  load.resolve("@pulumi/pulumi/proto/engine_pb", { paths: [sdkDir] }),
) as {
  GetRootResourceRequest: new () => object;
};
const settings = load(load.resolve("@pulumi/pulumi/runtime/settings", { paths: [sdkDir] })) as {
  grpcClientOptions: object;
};

/** Calls to a just-stopped engine until one finds it gone (each fails within milliseconds). */
const LATE_CALL_ATTEMPTS = 20;

interface EngineStub {
  getRootResource(request: object, callback: (error: { code: number } | null) => void): void;
  close(): void;
}

/** A loopback gRPC server with no services, on `port` (0: any). */
async function engineAt(port: number): Promise<{ port: number; stop(): void }> {
  const server = new grpc.Server();
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return { port: bound, stop: () => server.forceShutdown() };
}

/** The status code of one call from a new SDK engine client (built as the SDK builds it) to `port`. */
function firstCallStatus(port: number, keepOpen: EngineStub[]): Promise<number> {
  const client = new EngineClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    settings.grpcClientOptions,
  );
  keepOpen.push(client); // the SDK never closes an inline program's clients
  return new Promise((resolve) =>
    client.getRootResource(new GetRootResourceRequest(), (error) => resolve(error === null ? 0 : error.code)),
  );
}

/** An engine that ran and exited on a port, leaving the SDK's client of it in the pool; then a new engine there. */
async function reusedPort(clients: EngineStub[]): Promise<{ port: number; stop(): void }> {
  const old = await engineAt(0);
  expect(await firstCallStatus(old.port, clients)).toBe(grpc.status.UNIMPLEMENTED);
  old.stop();
  // A late call of the old run (a log line, a shutdown signal) finds the engine gone; the first ones may
  // still meet the closing connection (CANCELLED).
  let late = -1;
  for (let attempt = 0; attempt < LATE_CALL_ATTEMPTS && late !== grpc.status.UNAVAILABLE; attempt++) {
    late = await firstCallStatus(old.port, clients);
  }
  expect(late).toBe(grpc.status.UNAVAILABLE);
  return engineAt(old.port);
}

describe("inline program connections to a reused engine port", () => {
  it("with the SDK's shared pool, the new engine is unreachable; isolated, it is reached", async () => {
    const clients: EngineStub[] = [];
    try {
      const shared = await reusedPort(clients);
      const sharedStatus = await firstCallStatus(shared.port, clients);
      shared.stop();
      // The hazard: a live engine, and the program's first call fails at once.
      expect(sharedStatus).toBe(grpc.status.UNAVAILABLE);

      expect(isolateInlineProgramConnections()).toBe(true);
      const isolated = await reusedPort(clients);
      const isolatedStatus = await firstCallStatus(isolated.port, clients);
      isolated.stop();
      expect(isolatedStatus).toBe(grpc.status.UNIMPLEMENTED);
    } finally {
      for (const client of clients) client.close();
    }
  });
});
