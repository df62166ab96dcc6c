/**
 * Maps API paths to routes and the methods each route allows. Paths arrive normalised by `parseTarget`
 * (unreserved characters decoded, one trailing slash removed); anything else encoded stays encoded.
 */

/** A recognised API path. */
export type Route =
  | { kind: "root" }
  | { kind: "collection" }
  | { kind: "ids"; segment: string }
  | { kind: "unknown" };

const COLLECTION = "/webhook_subscriptions";

/** Resolve an API path (without query) to a route. */
export function route(path: string): Route {
  if (path === "/") return { kind: "root" };
  if (path === COLLECTION) return { kind: "collection" };
  if (path.startsWith(`${COLLECTION}/`)) {
    const segment = path.slice(COLLECTION.length + 1);
    if (!segment.includes("/")) return { kind: "ids", segment };
  }
  return { kind: "unknown" };
}

/** Methods allowed on a route (the `Allow` header of a 405). */
export function allowedMethods(r: Route): string[] {
  switch (r.kind) {
    case "root":
      return ["GET", "HEAD"];
    case "collection":
      return ["GET", "HEAD", "POST"];
    case "ids":
      return ["GET", "HEAD", "DELETE"];
    case "unknown":
      return [];
  }
}
