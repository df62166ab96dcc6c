/**
 * The ResourceProvider gRPC service of `pulumi-resource-shipping`: a thin host of {@link ShippingProvider}, the
 * same provider the dynamic-provider host serves (runtime.ts). It translates the protocol (secrets on the wire,
 * the resource's URN, an import's read by id) and keeps the dynamic host's fields (`__provider`, hidden `__`
 * inputs) out of the state it writes.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { UNKNOWN_VALUE } from "../inputs/lifecycle";
import type { ShippingProvider } from "../operations/provider";
import { checkedConfig, configChanges, configSource, misspeltSettings } from "./config";
import { grpcError, unimplemented } from "./errors";
import schema from "./schema.json";
import { Empty, type ProviderMessages as pb, pluginProto, proto } from "./sdk";
import { toStruct, unwrap } from "./values";

/** Outputs that are secret whatever the inputs were: `previous` may hold an earlier declaration's secret URL. */
const ALWAYS_SECRET = ["previous"];
/** The dynamic host's fields (`__provider`, hidden inputs): never in the plugin's state. */
const dynamicHostField = (key: string) => key.startsWith("__");
/** The schema, as GetSchema answers it. */
const SCHEMA_TEXT = JSON.stringify(schema);

type Handler<Req, Res> = (
  call: grpcTypes.ServerUnaryCall<Req, Res>,
  callback: grpcTypes.sendUnaryData<Res>,
) => void;

/**
 * A unary handler from an async function: its errors go to the engine as the resource's error (a write not
 * confirmed with its outputs, of which `secretsOf` the request's secret properties stay secret).
 */
function unary<Req, Res>(
  run: (request: Req) => Promise<Res>,
  secretsOf: (request: Req) => Iterable<string> = () => [],
): Handler<Req, Res> {
  return (call, callback) => {
    run(call.request).then(
      (response) => callback(null, response),
      (error: unknown) =>
        callback(
          grpcError(error, (props) => outputs(props, secretsOf(call.request))),
          null,
        ),
    );
  };
}

/** A handler of a method this provider does not serve. */
function notServed<Req, Res>(method: string): Handler<Req, Res> {
  return (_call, callback) => callback(unimplemented(method), null);
}

/** The outputs as the state stores them: no dynamic-host field; `previous` and the `secret` ones secret. */
function outputs(props: Record<string, unknown>, secret: Iterable<string>) {
  return toStruct(props, [...secret, ...ALWAYS_SECRET], dynamicHostField);
}

/** The secret properties of a create's or update's request (an unconfirmed write's outputs keep them secret). */
function secretInputs(req: pb.CreateRequest | pb.UpdateRequest): string[] {
  if ("getProperties" in req) return [...unwrap(req.getProperties()).secret];
  return [...unwrap(req.getOlds()).secret, ...unwrap(req.getNews()).secret];
}

/** What a preview of a create shows: the inputs, and the outputs only the create learns as unknown. */
function previewOutputs(inputs: Record<string, unknown>): Record<string, unknown> {
  return { ...inputs, subscriptionId: UNKNOWN_VALUE, api: UNKNOWN_VALUE };
}

/** The gRPC service implementation that serves `provider` (one per plugin process). */
export function providerService(provider: ShippingProvider): grpcTypes.UntypedServiceImplementation {
  return {
    getSchema: unary(async (_req: pb.GetSchemaRequest) =>
      new proto.GetSchemaResponse().setSchema(SCHEMA_TEXT),
    ),
    getPluginInfo: unary(async () => new pluginProto.PluginInfo().setVersion(schema.version)),
    checkConfig: unary(async (req: pb.CheckRequest) => {
      const { values, secret } = checkedConfig(unwrap(req.getNews()));
      const failures = misspeltSettings(values).map((f) =>
        new proto.CheckFailure().setProperty(f.property).setReason(f.reason),
      );
      return new proto.CheckResponse().setInputs(toStruct(values, secret)).setFailuresList(failures);
    }),
    diffConfig: unary(async (req: pb.DiffRequest) => {
      // A change of settings updates the provider in place: the resources' own diffs decide (a shop that now
      // reaches another API is refused there), never a replacement of every subscription.
      const changed = configChanges(unwrap(req.getOlds()).values, unwrap(req.getNews()).values);
      const { DIFF_SOME, DIFF_NONE } = proto.DiffResponse.DiffChanges;
      return new proto.DiffResponse()
        .setChanges(changed.length > 0 ? DIFF_SOME : DIFF_NONE)
        .setDiffsList(changed);
    }),
    configure: unary(async (req: pb.ConfigureRequest) => {
      const variables = new Map(req.getVariablesMap().toArray());
      const source = configSource(unwrap(req.getArgs()).values, variables);
      await provider.configure({ config: { get: (key) => source(key) } });
      return new proto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true);
    }),
    check: unary(async (req: pb.CheckRequest) => {
      const news = unwrap(req.getNews());
      const result = await provider.check(
        unwrap(req.getOlds()).values,
        news.values,
        req.getUrn(),
        news.secret,
      );
      const response = new proto.CheckResponse().setInputs(toStruct(result.inputs, news.secret));
      return response.setFailuresList(
        result.failures.map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason)),
      );
    }),
    diff: unary(async (req: pb.DiffRequest) => {
      const olds = unwrap(req.getOlds()).values;
      const decision = await provider.diff(req.getId(), olds, unwrap(req.getNews()).values);
      const response = new proto.DiffResponse().setReplacesList(decision.replaces);
      // State of the dynamic host (a stack moved here with a type alias): an update rewrites it without its
      // fields, with no write to the service.
      const leftover = Object.keys(olds).filter(dynamicHostField);
      const changes = decision.changes || leftover.length > 0;
      response.setDiffsList(decision.changes ? decision.replaces : leftover);
      return response.setChanges(
        changes ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE,
      );
    }),
    create: unary(async (req: pb.CreateRequest) => {
      const props = unwrap(req.getProperties());
      // A preview's create writes nothing: the outputs it cannot know yet are unknown.
      if (req.getPreview())
        return new proto.CreateResponse().setProperties(outputs(previewOutputs(props.values), props.secret));
      const { id, outs } = await provider.create(props.values);
      return new proto.CreateResponse().setId(id).setProperties(outputs({ ...outs }, props.secret));
    }, secretInputs),
    read: unary(async (req: pb.ReadRequest) => {
      const props = unwrap(req.getProperties());
      const result = await provider.read(req.getId(), props.values);
      const response = new proto.ReadResponse();
      if (result.id === undefined || result.props === undefined) return response;
      response.setId(result.id).setProperties(outputs(result.props, props.secret));
      const inputs = result.inputs ?? unwrap(req.getInputs()).values;
      return response.setInputs(toStruct(inputs, unwrap(req.getInputs()).secret, dynamicHostField));
    }),
    update: unary(async (req: pb.UpdateRequest) => {
      const olds = unwrap(req.getOlds());
      const news = unwrap(req.getNews());
      if (req.getPreview())
        return new proto.UpdateResponse().setProperties(
          outputs(olds.values, [...olds.secret, ...news.secret]),
        );
      const { outs } = await provider.update(req.getId(), olds.values, news.values);
      return new proto.UpdateResponse().setProperties(outputs(outs, [...olds.secret, ...news.secret]));
    }, secretInputs),
    delete: unary(async (req: pb.DeleteRequest) => {
      await provider.delete(req.getId(), unwrap(req.getProperties()).values);
      return new Empty();
    }),
    cancel: unary(async () => new Empty()),
    invoke: notServed("Invoke"),
    call: notServed("Call"),
    construct: notServed("Construct"),
    list: (call: grpcTypes.ServerWritableStream<unknown, unknown>) =>
      call.emit("error", unimplemented("List")),
    handshake: notServed("Handshake"),
    parameterize: notServed("Parameterize"),
    attach: notServed("Attach"),
    getMapping: notServed("GetMapping"),
    getMappings: notServed("GetMappings"),
  };
}
