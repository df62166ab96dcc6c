/** The API's hooks, from the contract (`contract/hooks.ts`), as the provider and its public API use them. */
export { HOOKS, type Hook, isHook } from "../../contract/hooks";
