import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { read, tags, write } from "./access.js";
import { awardBadge, grantPoints, ledgerPage, revokeAward, userSummary, viewerOf } from "./people.js";
import {
  AwardBody,
  AwardResult,
  LedgerEntry,
  LedgerPage,
  PointsBody,
  RevokeBody,
  UserSummary,
} from "./schemas.js";

const OWN = "A student's session reads only its own (another user's is 404).";

/** Awards, revocations, manual points and what a user holds. */
export function peopleRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    "/api/institution/gamification/badges/:id/awards",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Award a badge",
        description:
          "To up to 500 users of the institution (400 naming an unknown one), with optional evidence; emits " +
          "`badge_awarded` for each. A user holding the badge already (not revoked) is listed in `alreadyHeld` " +
          "and unchanged. 409 when the badge is archived. Each award is an Open Badges 3.0 credential at its " +
          "public `credentialUrl`.",
        params: IdParams,
        body: AwardBody,
        response: { 201: AwardResult },
      },
    },
    async (request, reply) => {
      const result = await awardBadge(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
        principalOf(request),
        publicOrigin(request),
      );
      reply.code(201);
      return result;
    },
  );

  app.delete(
    "/api/institution/gamification/awards/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Revoke a badge award",
        description:
          "With a reason (kept for the institution; the public OB 2.0 assertion shows it). The credential's " +
          "Bitstring Status List shows it revoked from then on; emits `badge_revoked`. 409 when revoked already.",
        params: IdParams,
        body: RevokeBody,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await revokeAward(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body.reason,
        principalOf(request),
      );
      reply.code(204);
    },
  );

  app.post(
    "/api/institution/gamification/points",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Add or deduct points",
        description:
          "A ledger entry by hand (`manual` when positive, `adjustment` when negative; 0 is 400), counted in the " +
          "institution's leaderboards, the user's class groups' and `courseId`'s when given; emits " +
          "`points_awarded` (and `level_up`, threshold badges). Entries are never changed or removed: a mistake " +
          "is corrected by another entry.",
        body: PointsBody,
        response: { 201: LedgerEntry },
      },
    },
    async (request, reply) => {
      const entry = await grantPoints(db, tenantOf(request).id, request.body, principalOf(request));
      reply.code(201);
      return entry;
    },
  );

  app.get(
    "/api/institution/gamification/users/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "A user's points, level, rank and badges",
        description: OWN,
        params: IdParams,
        response: { 200: UserSummary },
      },
    },
    (request) =>
      userSummary(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        viewerOf(principalOf(request)),
        publicOrigin(request),
      ),
  );

  app.get(
    "/api/institution/gamification/users/:id/points",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "A user's point ledger",
        description: `Newest first, each entry with the balance after it; the total is exact. ${OWN}`,
        params: IdParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: LedgerPage },
      },
    },
    (request) =>
      ledgerPage(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.query,
        viewerOf(principalOf(request)),
      ),
  );
}
