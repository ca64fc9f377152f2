import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { badgeCredential, hostedAssertion, LIST_BITS, statusList } from "./credentials.js";
import { ASSERTION_EXAMPLE, CREDENTIAL_EXAMPLE, STATUS_LIST_EXAMPLE } from "./examples.js";

const tags = ["gamification"];
/** JSON-LD documents whose shape the standards define; the examples show them. */
const Json = (example: Record<string, unknown>) =>
  Type.Object({}, { additionalProperties: true, examples: [example] });
const ListParams = Type.Object({ list: Type.Integer({ minimum: 0, maximum: 70_000_000_000 }) });

/**
 * The public face of badge awards, on the institution's host and without credentials, as certificates'
 * `/api/verify/:code`: an unknown id, or another institution's, is 404 after the same lookup a known one costs.
 */
export function credentialRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  const deps = ctx.config;

  app.get(
    "/api/gamification/credentials/:id",
    {
      config: { access: { kind: "tenant" }, errors: [404] },
      schema: {
        tags,
        summary: "A badge award's Open Badges 3.0 credential",
        description:
          "Public. The award as an `OpenBadgeCredential` (W3C VC 2.0, OB 3.0 context 3.0.3) with a Data " +
          "Integrity proof (`eddsa-rdfc-2022`) by the institution's `did:key` issuer, resolvable offline. The " +
          "recipient is a salted SHA-256 of the e-mail. Revocation shows in the `credentialStatus` " +
          "(BitstringStatusListEntry), not in the credential.",
        params: IdParams,
        response: { 200: Json(CREDENTIAL_EXAMPLE) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return badgeCredential(
        db,
        deps,
        tenantOf(request).id,
        requireUuid(request.params.id),
        publicOrigin(request),
      );
    },
  );

  app.get(
    "/api/gamification/status-lists/:list",
    {
      config: { access: { kind: "tenant" } },
      schema: {
        tags,
        summary: "A revocation list of badge credentials",
        description:
          `Public. A signed \`BitstringStatusListCredential\` (W3C Bitstring Status List, purpose \`revocation\`) ` +
          `of ${LIST_BITS} bits; a credential's \`credentialStatus.statusListIndex\` is its bit.`,
        params: ListParams,
        response: { 200: Json(STATUS_LIST_EXAMPLE) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return statusList(db, deps, tenantOf(request).id, request.params.list, publicOrigin(request));
    },
  );

  app.get(
    "/api/gamification/assertions/:id",
    {
      config: { access: { kind: "tenant" }, errors: [404] },
      schema: {
        tags,
        summary: "A badge award as an Open Badges 2.0 hosted assertion",
        description: "Public. A revoked award answers `{revoked: true, revocationReason}`.",
        params: IdParams,
        response: { 200: Json(ASSERTION_EXAMPLE) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return hostedAssertion(db, tenantOf(request).id, requireUuid(request.params.id), publicOrigin(request));
    },
  );
}
