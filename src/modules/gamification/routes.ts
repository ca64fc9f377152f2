import { admins, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { read, tags, write } from "./access.js";
import { createBadge, getBadge, listBadges, updateBadge } from "./badges.js";
import { credentialRoutes } from "./credential-routes.js";
import { leaderboard } from "./leaderboard.js";
import { viewerOf } from "./people.js";
import { peopleRoutes } from "./people-routes.js";
import {
  Badge,
  BadgePage,
  CreateBadgeBody,
  LeaderboardPage,
  LeaderboardQuery,
  ListBadgesQuery,
  PatchBadgeBody,
  Settings,
  SettingsPatch,
} from "./schemas.js";
import { readSettings, updateSettings } from "./settings.js";

export function gamificationRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  credentialRoutes(app, ctx);
  peopleRoutes(app, ctx);

  app.get(
    "/api/institution/gamification/settings",
    {
      config: { access: staff("gamification:read") },
      schema: { tags, summary: "Read the gamification settings", response: { 200: Settings } },
    },
    (request) => readSettings(db, tenantOf(request).id),
  );

  app.patch(
    "/api/institution/gamification/settings",
    {
      config: { access: admins("gamification:write") },
      schema: {
        tags,
        summary: "Change the gamification settings",
        description:
          "Point rules (one per event; cooldown and daily cap per user), levels and the leaderboard's options. " +
          "Given keys replace; `leaderboard` merges key by key. Points already awarded never change: the ledger " +
          "is append-only and a level is read from the balance under the current levels.",
        body: SettingsPatch,
        response: { 200: Settings },
      },
    },
    (request) => updateSettings(db, tenantOf(request).id, request.body),
  );

  app.get(
    "/api/institution/gamification/badges",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List badges",
        description: "Oldest first; `status` narrows. The total is exact.",
        querystring: ListBadgesQuery,
        response: { 200: BadgePage },
      },
    },
    (request) => listBadges(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/gamification/badges",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a badge",
        description:
          "An Open Badges achievement. `imageMediaId` must be a ready image of the institution's media (400 " +
          "otherwise). `awardRule` says who earns it without a person awarding it: the user of an `event`, " +
          "whoever completes `courseId` (`course_completion`), or reaches `threshold` points.",
        body: CreateBadgeBody,
        response: { 201: Badge },
      },
    },
    async (request, reply) => {
      const badge = await createBadge(db, tenantOf(request).id, request.body);
      reply.code(201);
      return badge;
    },
  );

  app.get(
    "/api/institution/gamification/badges/:id",
    {
      config: { access: read },
      schema: { tags, summary: "Get a badge", params: IdParams, response: { 200: Badge } },
    },
    (request) => getBadge(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/gamification/badges/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Change a badge",
        description:
          "Applies to awards made from now on: a credential shows the badge as it was when awarded. " +
          "`status: archived` stops its rule and manual awards (409).",
        params: IdParams,
        body: PatchBadgeBody,
        response: { 200: Badge },
      },
    },
    (request) => updateBadge(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.get(
    "/api/institution/gamification/leaderboard",
    {
      config: { access: read, errors: [404] },
      schema: {
        tags,
        summary: "Read a leaderboard",
        description:
          "Points earned in the window (`period`: all time, this month, this ISO week, in the institution's time " +
          "zone) in the institution, a course (`courseId`: points earned there) or a class group " +
          "(`classGroupId`: its members' points earned while members). Scope and period default to the " +
          "settings'. Highest first, equal points by user id; `rank` is the position. Students read it only " +
          "while `leaderboard.enabled` (404 otherwise); with `anonymize` they see others as `Learner #<rank>` " +
          "without id, and their own row (`me: true`) with their name. " +
          cappedTotalNote("never (rows are counted)"),
        querystring: LeaderboardQuery,
        response: { 200: LeaderboardPage },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request).id;
      const settings = await readSettings(db, tenantId);
      return leaderboard(db, tenantId, settings, request.query, viewerOf(principalOf(request)));
    },
  );
}
