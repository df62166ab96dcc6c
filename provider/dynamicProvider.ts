/**
 * What the engine stores in every resource's `__provider`: the source of a module whose `handler` returns
 * the provider. The dynamic-provider host compiles it with `require-from-string`, so its `require` resolves
 * from the directory `pulumi` runs in, where the package is installed.
 *
 * It is this hand-written text instead of a closure serialized by `pulumi.runtime.serializeFunction` (about
 * 2.5 KB) because the engine stores `__provider` twice per resource and writes the whole state for every
 * step: the bytes cost time quadratically with the size of a stack. The text names only exports that every
 * release of the package has had (so state written by a newer release still works after a downgrade), and it
 * holds no path of the build machine and no credential. An upgrade of the package takes effect without a diff.
 */
export const PROVIDER_MODULE =
  'exports.handler=()=>{let r;try{r=require("pulumi-shipping-webhooks/runtime")}catch(e){if(e.code==="MODULE_NOT_FOUND")e.message="install pulumi-shipping-webhooks in "+process.cwd()+", the project that runs pulumi: "+e.message;throw e}return{configure:r.configure,check:r.check,diff:r.diff,create:r.create,read:r.read,delete:r.deleteSubscription}}';

/** The resource type token of {@link PROVIDER_MODULE}'s resources: the one `pulumi.dynamic.Resource` gives. */
export const RESOURCE_TYPE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";
