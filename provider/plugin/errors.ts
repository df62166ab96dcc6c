/**
 * A provider error as the engine takes it over gRPC: its message, and for a write the service took but that
 * could not be confirmed ({@link ShippingUnconfirmedWriteError}) the resource the engine records as created but
 * not initialized, so that nothing the service wrote is left recorded nowhere.
 */
import { ShippingUnconfirmedWriteError } from "../errors/unconfirmedWriteError";
import { Any, grpc, proto, statusProto } from "./sdk";
import type { toStruct } from "./values";

/** What a handler hands to its callback for `error`. */
export function grpcError(
  error: unknown,
  outputs: (properties: Record<string, unknown>) => ReturnType<typeof toStruct>,
): Partial<import("@grpc/grpc-js").StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  const metadata = new grpc.Metadata();
  if (error instanceof ShippingUnconfirmedWriteError) {
    const detail = new proto.ErrorResourceInitFailed();
    detail.setId(error.id);
    detail.setProperties(outputs(error.properties));
    detail.setReasonsList(error.reasons);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusProto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/** The answer of a method this provider does not serve. */
export function unimplemented(method: string): Partial<import("@grpc/grpc-js").StatusObject> {
  return {
    code: grpc.status.UNIMPLEMENTED,
    details: `${method} is not implemented by pulumi-resource-shipping`,
  };
}
