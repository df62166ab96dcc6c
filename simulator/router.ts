/** Maps API paths to routes and the methods each route allows. Paths are matched raw (not URL-decoded). */

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
  if (path === COLLECTION || path === `${COLLECTION}/`) return { kind: "collection" };
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
      return ["GET"];
    case "collection":
      return ["GET", "POST"];
    case "ids":
      return ["GET", "DELETE"];
    case "unknown":
      return [];
  }
}
