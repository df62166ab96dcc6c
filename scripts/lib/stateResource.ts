/**
 * A resource as Pulumi's state holds it: what a checkpoint file and `pulumi stack export` write for each
 * resource, the fields the scripts and the tests read.
 */
export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}
