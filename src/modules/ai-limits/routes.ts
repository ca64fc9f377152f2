import { Type } from "typebox";
import { admins } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import {
  ListOverridesQuery,
  Override,
  OverridePage,
  OverrideParams,
  Policy,
  PutOverrideBody,
  PutPolicyBody,
  Usage,
  UsageQuery,
  UserParams,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["ai-limits"];
const BASE = "/api/institution/ai-limits";
const read = admins("ai:read");
const write = admins("ai:write");

const PRECEDENCE =
  "A user's limit is the most specific that applies: their own override, else the highest of their class groups', " +
  "else the course's (of the prompt run), else their role's, else the policy's `perUserLimit`; `institutionLimit` " +
  "caps every call of the institution together. Windows start at midnight in the institution's time zone (weeks " +
  "on Monday). A call over a limit answers 429 `rate_limit_exceeded` with `retryAfter` (and `Retry-After`) = " +
  "seconds until the window resets, and emits `ai_limit_reached` once per user and window.";

export function aiLimitRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    BASE,
    {
      config: { access: read },
      schema: { tags, summary: "Get the AI limit policy", response: { 200: Policy } },
    },
    (request) => service.getPolicy(db, tenantOf(request).id),
  );

  app.put(
    BASE,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Set the AI limit policy",
        description: PRECEDENCE,
        body: PutPolicyBody,
        response: { 200: Policy },
      },
    },
    (request) => service.putPolicy(db, tenantOf(request).id, request.body),
  );

  app.get(
    `${BASE}/overrides`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List AI limit overrides",
        querystring: ListOverridesQuery,
        response: { 200: OverridePage },
      },
    },
    (request) => service.listOverrides(db, tenantOf(request).id, request.query),
  );

  app.put(
    `${BASE}/overrides/:subjectType/:subjectId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Set an AI limit override",
        description: `201 when created, 200 when replaced. A subject not of this institution is 404. ${PRECEDENCE}`,
        params: OverrideParams,
        body: PutOverrideBody,
        response: { 200: Override, 201: Override },
      },
    },
    async (request, reply) => {
      const { subjectType, subjectId } = request.params;
      const { row, created } = await service.putOverride(
        db,
        tenantOf(request).id,
        service.subjectTypeOf(subjectType),
        subjectId,
        request.body,
      );
      reply.code(created ? 201 : 200);
      return row;
    },
  );

  app.delete(
    `${BASE}/overrides/:subjectType/:subjectId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Remove an AI limit override",
        params: OverrideParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { subjectType, subjectId } = request.params;
      await service.deleteOverride(db, tenantOf(request).id, service.subjectTypeOf(subjectType), subjectId);
      reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/usage`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get AI usage in the current window",
        description:
          "With `userId`, that user's spending and the limit that applies to them (with `courseId`, as in " +
          "that course); without, the institution's.",
        querystring: UsageQuery,
        response: { 200: Usage },
      },
    },
    (request) => service.usage(db, tenantOf(request).id, request.query),
  );

  app.post(
    `${BASE}/usage/:userId/reset`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Reset a user's AI usage",
        description:
          "Sets the user's spending in the current window to 0 (the institution's total is unchanged).",
        params: UserParams,
        response: { 200: Usage },
      },
    },
    (request) => service.resetUsage(db, tenantOf(request).id, requireUuid(request.params.userId)),
  );
}
