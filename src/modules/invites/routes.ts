import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { admins, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import { mailDepsOf } from "../email/service.js";
import {
  AcceptedInvite,
  AcceptInviteBody,
  CreateInviteBody,
  DEFAULT_TTL_DAYS,
  Invite,
  InvitePage,
  IssuedInvite,
  ListInvitesQuery,
  MAX_TTL_DAYS,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["invites"];
const read = staff("invites:read");
const write = admins("invites:write");

export function inviteRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  const { config, limiters } = ctx;
  // The tenant's own host, as the pipeline resolved it (not X-Forwarded-Host, which could point elsewhere).
  const originOf = (request: FastifyRequest) => mailDepsOf(config, publicOrigin(request));

  app.get(
    "/api/institution/invites",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List invitations",
        description:
          "Newest first unless `sort` says otherwise. Filter by `status` (a pending invitation past its expiry " +
          "is `expired`) and by `email` (exact, ignoring case). Tokens are never listed. `pagination.total` is " +
          "exact unfiltered and for each status (for `pending` and `expired` unless over " +
          `${TOTAL_CAP} invitations lapsed since the hourly expiry pass); \`email\` counts its matches ` +
          `exactly up to ${TOTAL_CAP}, beyond which it is a lower bound (\`totalRelation: "gte"\`).`,
        querystring: ListInvitesQuery,
        response: { 200: InvitePage },
      },
    },
    (request) => service.listInvites(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/invites",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Invite someone",
        description:
          `Answers the invitation with its \`token\` (64 hex characters) and \`acceptUrl\`, shown only here; the ` +
          `institution keeps only the token's SHA-256. \`expiresAt\` defaults to ${DEFAULT_TTL_DAYS} days from ` +
          `now and may be at most ${MAX_TTL_DAYS} days ahead. Courses and classes must exist (400). An ` +
          "address with a pending invitation or a user account is 409 `conflict`. Inviting an " +
          "`institution_admin` needs an administrator's session (403). Emits `invite_sent`.",
        body: CreateInviteBody,
        response: { 201: IssuedInvite },
      },
    },
    async (request, reply) => {
      const issued = await service.createInvite(
        db,
        tenantOf(request).id,
        principalOf(request),
        request.body,
        originOf(request),
      );
      reply.code(201);
      return issued;
    },
  );

  app.get(
    "/api/institution/invites/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get an invitation",
        description: "Without its token, which only the creation and resend answers carry.",
        params: IdParams,
        response: { 200: Invite },
      },
    },
    (request) => service.getInvite(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.post(
    "/api/institution/invites/:id/resend",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Send an invitation again",
        description:
          `Issues a new token (the old one stops working) and moves the expiry to ${DEFAULT_TTL_DAYS} days from ` +
          "now; the token and `acceptUrl` are in this answer only. A pending or expired invitation can be sent " +
          "again; an accepted or revoked one is 409 `conflict`. Emits `invite_sent`.",
        params: IdParams,
        response: { 200: IssuedInvite },
      },
    },
    (request) =>
      service.resendInvite(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        originOf(request),
      ),
  );

  app.delete(
    "/api/institution/invites/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Revoke an invitation",
        description:
          "Its token stops working at once; the invitation stays listed as `revoked`. An accepted invitation is " +
          "409 `conflict`. Emits `invite_revoked`.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.revokeInvite(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      reply.code(204).send(null);
    },
  );

  app.post(
    "/api/invites/accept",
    {
      config: { access: { kind: "tenant" }, closedWhileInactive: true, errors: [409, 422, 429, 503] },
      schema: {
        tags,
        summary: "Accept an invitation",
        description:
          "Public, on the institution's host: the token is the credential. Creates the user (active, with the " +
          "invitation's role and this password) and their class memberships, and marks the invitation " +
          "accepted. Unknown token: 404. Expired, revoked or already accepted: 409 `conflict`, each with its " +
          "own message. A student counts against the plan's limit (422 `student_limit_reached`, 503 " +
          "`student_limit_unverifiable`; nothing is created). Failed attempts are limited per IP (429). While the " +
          "institution's subscription is suspended, unpaid or paused: 402 `subscription_inactive`.",
        body: AcceptInviteBody,
        response: { 201: AcceptedInvite },
      },
    },
    async (request, reply) => {
      const user = await service.acceptInviteLimited(
        {
          db,
          plans: config.plans,
          limiters,
          maxPerIp: config.auth.loginMaxPerIp,
          windowSeconds: config.auth.loginWindowSeconds,
        },
        tenantOf(request).id,
        request.ip,
        request.body,
      );
      reply.code(201).header("cache-control", "no-store");
      return { user };
    },
  );
}
