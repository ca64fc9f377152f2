import { admins } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { keyringOf } from "../automations/service.js";
import { getConversation, listConversations } from "./conversations.js";
import {
  ConversationDetail,
  ConversationPage,
  ConversationQuery,
  ListConversationsQuery,
  MAX_BUCKETS,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES,
  MAX_SPAN_DAYS,
  UsageQuery,
  UsageReport,
} from "./schemas.js";
import { TOPICS_PER_MESSAGE, TopicsQuery, TopicsReport, topics } from "./topics.js";
import { usage } from "./usage.js";

const tags = ["ai-analytics"];
const BASE = "/api/institution/ai-analytics";
/** The institution's figures: administrators' sessions and `ai:read` keys; teachers and students are 403. */
const read = admins("ai:read");

export function aiAnalyticsRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/usage`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "AI usage by period or subject",
        description:
          `Requests, tokens, credits and active users from \`from\` to \`to\` (dates in the institution's time zone, ` +
          `both included; default the last 30 days; at most ${MAX_SPAN_DAYS} days), grouped by day, week (from ` +
          `Monday), month, feature, model, course or user. Read from daily rollups. A grouping by subject keeps the ` +
          `${MAX_BUCKETS} largest by credits (\`truncated\` says so); \`courseId\`/\`userId\` null gathers calls ` +
          "outside a course or of no user.",
        querystring: UsageQuery,
        response: { 200: UsageReport },
      },
    },
    (request) => usage(db, tenantOf(request).id, request.query),
  );

  app.get(
    `${BASE}/topics`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Top topics of AI questions",
        description:
          `The \`limit\` (default 20, at most 100) most frequent topics from \`from\` to \`to\` (as for usage: dates ` +
          `in the institution's time zone, both included, default the last 30 days, at most ${MAX_SPAN_DAYS} days), ` +
          "in a course with `courseId`; by count, then topic. A topic is a stem of the words a run's caller wrote " +
          `(its values, not the template), in the language whose stop words fit, at most ${TOPICS_PER_MESSAGE} per ` +
          "question, without any model call. Read from daily rollups of stems only: no message text, sealed or not, " +
          "is read or shown.",
        querystring: TopicsQuery,
        response: { 200: TopicsReport },
      },
    },
    (request) => topics(db, tenantOf(request).id, request.query),
  );

  app.get(
    `${BASE}/conversations`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List AI conversations",
        description:
          "Records of prompt runs that continue one another (a run's `conversationId`), newest activity first; " +
          "`from`/`to` bound `lastMessageAt` (`to` excluded). Never their messages. " +
          cappedTotalNote("when the page shows the end"),
        querystring: ListConversationsQuery,
        response: { 200: ConversationPage },
      },
    },
    (request) => listConversations(db, tenantOf(request).id, request.query),
  );

  app.get(
    `${BASE}/conversations/:id`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get an AI conversation",
        description:
          "`include=messages` adds the transcript (personal data): an administrator's session only; an API key, " +
          `whatever its scopes, is 403 \`session_required\`. A conversation keeps at most ${MAX_MESSAGES} ` +
          `messages of at most ${MAX_MESSAGE_CHARS} characters each.`,
        params: IdParams,
        querystring: ConversationQuery,
        response: { 200: ConversationDetail },
      },
    },
    (request) => {
      const id = requireUuid(request.params.id);
      const withMessages = request.query.include === "messages";
      if (withMessages && principalOf(request).kind !== "session") throw new AppError("session_required");
      const keyring = withMessages ? keyringOf(ctx.config) : undefined;
      return getConversation(db, tenantOf(request).id, id, keyring);
    },
  );
}
