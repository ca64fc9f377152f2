import { admins } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";
import { MAX_BUCKETS, MAX_SPAN_DAYS, UsageQuery, UsageReport } from "./schemas.js";
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
}
