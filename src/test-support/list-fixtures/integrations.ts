import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  AT,
  analyze,
  insertedId,
  insertUsers,
  type ListFixture,
  rare,
  rows,
  type SeedTenant,
} from "./types.js";

/** Automations and webhook endpoints with their deliveries and stats, live class attendance. */

/** `size` automations (or webhook endpoints) of the tenant, their secrets sealed or not (a list never opens one). */
async function insertAutomations(db: Db, t: SeedTenant, size: number, kind: "automation" | "endpoint") {
  await db.execute(sql`
    INSERT INTO automations (tenant_id, kind, name, trigger_event, event_types, action, signing_secret, created_at,
                             updated_at)
    SELECT ${t.id}::uuid, ${kind}, 'https://hooks.example.com/' || i,
           CASE WHEN ${kind} = 'endpoint' THEN '*' ELSE 'user.created' END,
           CASE WHEN ${kind} = 'endpoint' THEN ARRAY['user.created'] END,
           jsonb_build_object('type', 'send_webhook', 'url', 'https://hooks.example.com/' || i), 'sealed', ${AT},
           ${AT}
    FROM generate_series(1, ${size}) AS i`);
}

export const automations: ListFixture = {
  name: "automations",
  path: "/api/institution/automations",
  scopes: ["automations:read"],
  tables: ["automations"],
  async seed(db, t, size) {
    await insertAutomations(db, t, size, "automation");
    await analyze(db, "automations");
    return {};
  },
  queries: [{ name: "default order", query: "" }],
};

export const endpoints: ListFixture = {
  name: "webhook endpoints",
  path: "/api/institution/webhooks",
  scopes: ["automations:read"],
  tables: ["automations"],
  async seed(db, t, size) {
    await insertAutomations(db, t, size, "endpoint");
    await analyze(db, "automations");
    return {};
  },
  queries: [{ name: "default order", query: "" }],
};

/** Half automations, half endpoints: the page lists both kinds, each with its figures. */
export const deliveryStats: ListFixture = {
  name: "delivery stats",
  path: "/api/institution/webhooks/deliveries/stats",
  scopes: ["automations:read"],
  tables: ["automations", "webhook_deliveries", "delivery_stats"],
  async seed(db, t, size) {
    await insertAutomations(db, t, Math.ceil(size / 2), "automation");
    await insertAutomations(db, t, Math.floor(size / 2), "endpoint");
    await analyze(db, "automations");
    return {};
  },
  queries: [{ name: "default order", query: "" }],
};

/** One automation (or endpoint) with `size` finished deliveries. */
function deliveries(kind: "automation" | "endpoint", path: string, name: string): ListFixture {
  return {
    name,
    path,
    scopes: ["automations:read"],
    tables: ["webhook_deliveries"],
    async seed(db, t, size) {
      await insertAutomations(db, t, 1, kind);
      const [owner] = await rows<{ id: string }>(
        db,
        sql`SELECT id FROM automations WHERE tenant_id = ${t.id}::uuid`,
      );
      await db.execute(sql`
        INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body,
                                        attempts, last_status_code, created_at, completed_at)
        SELECT ${t.id}::uuid, ${owner?.id}::uuid, gen_random_uuid(), 'user.created', 'succeeded',
               'https://hooks.example.com/1', '{}'::jsonb, '{}', 1, 204, ${AT}, ${AT} + interval '1 second'
        FROM generate_series(1, ${size}) AS i`);
      await analyze(db, "webhook_deliveries");
      return { id: owner?.id ?? "" };
    },
    queries: [{ name: "default order", query: "" }],
  };
}

/** One class of 20 occurrences, each attended by `size / 20` students. */
export const attendance: ListFixture = {
  name: "live class attendance",
  path: "/api/institution/live-classes/:id/attendance",
  scopes: ["live-classes:read"],
  tables: ["live_class_attendance"],
  async seed(db, t, size) {
    const classId = await insertedId(
      db,
      sql`INSERT INTO live_classes (tenant_id, title, host_user_id, starts_at, duration_minutes, timezone,
                                    room_secret, recurrence)
          VALUES (${t.id}::uuid, 'Weekly', ${t.adminUserId}::uuid, timestamptz '2024-01-01 10:00Z', 60, 'UTC',
                  'secret', 'FREQ=WEEKLY;COUNT=20') RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO live_class_occurrences (tenant_id, live_class_id, starts_at, ends_at, status)
      SELECT ${t.id}::uuid, ${classId}::uuid, timestamptz '2024-01-01 10:00Z' + n * interval '7 days',
             timestamptz '2024-01-01 11:00Z' + n * interval '7 days', 'ended'
      FROM generate_series(0, 19) AS n`);
    await insertUsers(db, t, Math.ceil(size / 20));
    await db.execute(sql`
      INSERT INTO live_class_attendance (tenant_id, occurrence_id, user_id, live_class_id, joined_at,
                                         duration_seconds, status, source)
      SELECT ${t.id}::uuid, o.id, u.id, ${classId}::uuid, o.starts_at, 3600, 'present', 'manual'
      FROM live_class_occurrences o CROSS JOIN users u
      WHERE o.tenant_id = ${t.id}::uuid AND u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    const [occurrence] = await rows<{ id: string }>(
      db,
      sql`SELECT id FROM live_class_occurrences WHERE tenant_id = ${t.id}::uuid ORDER BY starts_at LIMIT 1`,
    );
    await analyze(db, "users", "live_class_occurrences", "live_class_attendance");
    return { id: classId, occurrenceId: occurrence?.id ?? "" };
  },
  queries: [
    { name: "default order", query: "" },
    {
      name: "occurrenceId (a twentieth)",
      query: "occurrenceId={occurrenceId}",
      filtered: true,
      counter: true,
    },
  ],
};

export const ltiTools: ListFixture = {
  name: "lti tools",
  path: "/api/institution/lti-tools",
  scopes: ["lti:read"],
  tables: ["lti_tools"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO lti_tools (tenant_id, name, client_id, deployment_id, target_link_uri, oidc_initiation_url,
                             redirect_uris, jwks_url, status, created_at, updated_at)
      SELECT ${t.id}::uuid, 'Tool ' || i, md5(${t.id} || '-lti-' || i), 'd' || i, 'https://tool.example/launch',
             'https://tool.example/login', '["https://tool.example/launch"]'::jsonb, 'https://tool.example/keys',
             CASE WHEN ${rare(size)} THEN 'disabled' ELSE 'active' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "lti_tools");
    return {};
  },
  queries: [
    { name: "default order", query: "" },
    { name: "status rare", query: "status=disabled", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
  ],
};

export const INTEGRATIONS: ListFixture[] = [
  ltiTools,
  automations,
  endpoints,
  deliveryStats,
  deliveries("automation", "/api/institution/automations/:id/deliveries", "automation deliveries"),
  deliveries("endpoint", "/api/institution/webhooks/:id/deliveries", "endpoint deliveries"),
  attendance,
];
