/**
 * What the engine stores in every resource's `__provider`: the source of a module whose `handler` returns
 * the provider. The dynamic-provider host compiles it with `require-from-string`, so its `require` resolves
 * from the directory `pulumi` runs in, where the package is installed.
 *
 * It is this hand-written text instead of a closure serialized by `pulumi.runtime.serializeFunction` (about
 * 2.5 KB) because the engine stores `__provider` twice per resource and writes the whole state for every
 * step: the bytes cost time quadratically with the size of a stack. The text names only exports that every
 * release of the package has had (so state written by a newer release still works after a downgrade); the
 * host reads only the method names it knows from the spread exports (no release has exported `update`). It
 * holds no path of the build machine and no credential. An upgrade of the package takes effect without a diff.
 * When the package is missing, Node's own `Cannot find module 'pulumi-shipping-webhooks/runtime'` says what
 * to install; a friendlier message here would cost its bytes twice in every resource.
 */
export const PROVIDER_MODULE =
  'exports.handler=()=>{const r=require("pulumi-shipping-webhooks/runtime");return{...r,delete:r.deleteSubscription}}';
