import type { FastifyInstance } from "fastify";
import { boundedJsonParser } from "./json-body.js";

/** The media type RFC 7386 registers for a JSON merge patch. */
export const MERGE_PATCH_TYPE = "application/merge-patch+json";

/** The media types a merge-patch route declares in its schema's `consumes` (and so in the API reference). */
export const MERGE_PATCH_CONSUMES = ["application/json", MERGE_PATCH_TYPE];

/**
 * Lets the routes of this (encapsulated) scope take `application/merge-patch+json` bodies, parsed by the very
 * parser of `application/json` (boundedJsonParser, Fastify's behind our bounds): the same body limit (413), the same bounds on depth
 * and size, the same answers to an empty body (none) and to malformed JSON (400 `invalid_json`) and to
 * `__proto__`/`constructor` keys; the input guard and schema
 * validation then run as for any body. Register it only in a scope whose routes have merge-patch semantics, and
 * list MERGE_PATCH_CONSUMES in their schemas: the request pipeline admits a non-JSON type only where the route's
 * `consumes` names it.
 */
export function acceptMergePatch(scope: FastifyInstance): void {
  scope.addContentTypeParser(MERGE_PATCH_TYPE, { parseAs: "string" }, boundedJsonParser(scope));
}
