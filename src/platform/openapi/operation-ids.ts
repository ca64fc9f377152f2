/** Operation ids for the reference and generated clients, derived from each route's method, path and responses. */
type Json = Record<string, unknown>;

/**
 * Readable, stable operation ids from method and path: `courses.list`, `courses.create`, `courses.get`,
 * `courses.modules.list`, `courses.publish`. The literal segments after `/api` (and `/api/institution`) name
 * the resource; the method, whether the path ends in a parameter, and the success status name the verb. A
 * POST to a singular segment is an action named by it. A route may set `schema.operationId` instead.
 */
export function deriveOperationId(method: string, path: string, operation: Json): string {
  const segments = path
    .replace(/^\/api\/institution(?=\/)/, "")
    .replace(/^\/api(?=\/)/, "")
    .split("/")
    .filter((s) => s !== "");
  const endsInParameter = /^\{.*\}$/.test(segments.at(-1) ?? "");
  const names = segments
    .filter((s) => !/^\{.*\}$/.test(s))
    .map((s) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()));
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const last = names.at(-1) ?? "";
  let verb: string | undefined;
  if (endsInParameter) {
    verb = { get: "get", patch: "update", put: "set", delete: "delete", post: "post" }[method];
  } else if (method === "get") {
    verb = isPage(responses["200"]) ? "list" : "get";
  } else if (method === "post") {
    // A collection: 201 creates one item, 200 adds several (members, tagged resources).
    const collection = last.endsWith("s") || "201" in responses;
    if (collection && !ACTIONS.has(last)) verb = "201" in responses ? "create" : "add";
  } else {
    verb = { patch: "update", put: "set", delete: "delete" }[method];
  }
  return [...names, ...(verb === undefined ? [] : [verb])].join(".");
}

/** Singular or plural path segments that name an action rather than a collection. */
const ACTIONS = new Set(["accept", "bulk", "duplicate"]);

function isPage(response: Json | undefined): boolean {
  const schema = (response?.content as Record<string, { schema?: Json }> | undefined)?.["application/json"]
    ?.schema;
  const properties = schema?.properties as Json | undefined;
  return properties !== undefined && "pagination" in properties && "data" in properties;
}
