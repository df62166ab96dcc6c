/**
 * The gRPC runtime and the protocol's generated messages, loaded from the `@pulumi/pulumi` the program's
 * project installs (a peer dependency of this package): `@grpc/grpc-js` and `google-protobuf` are its
 * dependencies, not this package's, so they are resolved from its folder (which also holds under pnpm's
 * strict layout). The SDK's `main` of `@pulumi/pulumi/provider` is not used: it drops configure's arguments, hard-codes
 * `acceptSecrets` and crashes on an import's read.
 */
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as pluginTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as serviceTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";

const fromSdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));

/** `@grpc/grpc-js`, as the SDK loads it. */
export const grpc = fromSdk("@grpc/grpc-js") as typeof grpcTypes;
/** The provider protocol's messages (`pulumirpc`). */
export const proto = fromSdk("@pulumi/pulumi/proto/provider_pb") as typeof providerTypes;
/** The provider protocol's service definition. */
export const service = fromSdk("@pulumi/pulumi/proto/provider_grpc_pb") as typeof serviceTypes;
/** The plugin protocol's messages (`PluginInfo`). */
export const pluginProto = fromSdk("@pulumi/pulumi/proto/plugin_pb") as typeof pluginTypes;
/** `google.protobuf.Struct`. */
export const Struct = (fromSdk("google-protobuf/google/protobuf/struct_pb") as typeof structTypes).Struct;
/** `google.protobuf.Empty`. */
export const Empty = (fromSdk("google-protobuf/google/protobuf/empty_pb") as typeof emptyTypes).Empty;
/** A `google.protobuf.Struct`. */
export type StructMessage = structTypes.Struct;
/** The generated messages' types. */
export type { providerTypes as ProviderMessages };
/** `google.rpc.Status`, the details of an error. */
export const statusProto = fromSdk("@pulumi/pulumi/proto/status_pb") as {
  Status: new () => {
    setCode(code: number): void;
    setMessage(message: string): void;
    addDetails(any: unknown): void;
    serializeBinary(): Uint8Array;
  };
};
/** `google.protobuf.Any`. */
export const Any = (
  fromSdk("google-protobuf/google/protobuf/any_pb") as {
    Any: new () => { pack(bytes: Uint8Array, typeName: string): void };
  }
).Any;
