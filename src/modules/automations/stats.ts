import { and, asc, eq, sql } from "drizzle-orm";
import { type Static, Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { automations } from "../../db/schema/index.js";
import { notFound } from "../../platform/errors/app-error.js";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery, pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import type { Kind } from "./repo.js";

/**
 * The pending count stops here. Counting walks webhook_deliveries_pending_idx, one entry per unfinished delivery
 * (plus a heap visit for rows changed since the last vacuum, which pending rows often are): bounded, a read costs
 * at most this many entries per automation whatever the backlog, about a few milliseconds.
 */
export const PENDING_COUNT_CAP = 10_000;

const nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Number>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const LastHour = Type.Object(
  {
    attempts: Type.Integer({ minimum: 0 }),
    succeeded: Type.Integer({ minimum: 0 }),
    successRate: nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: "succeeded / attempts, to 4 decimals; null when no attempt was made.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Attempts started in the current minute and the 59 before it (UTC minutes), retries included, and how " +
      "many of them the receiver answered 2xx.",
  },
);

const statsProperties = {
  pending: Type.Integer({
    minimum: 0,
    maximum: PENDING_COUNT_CAP,
    description:
      `Deliveries not completed yet (waiting for their first attempt or a retry, or being sent). Exact up to ` +
      `${PENDING_COUNT_CAP}; ${PENDING_COUNT_CAP} means that many or more.`,
  }),
  oldestPendingAgeSeconds: nullable(
    Type.Integer({
      minimum: 0,
      description:
        "Seconds since the oldest of those deliveries was created (its event); null when none is pending.",
    }),
  ),
  lastHour: LastHour,
};

const statsExample = {
  pending: 3,
  oldestPendingAgeSeconds: 312,
  lastHour: { attempts: 240, succeeded: 236, successRate: 0.9833 },
};

export const DeliveryStats = Type.Object(statsProperties, {
  additionalProperties: false,
  examples: [statsExample],
});

export const AutomationDeliveryStats = Type.Object(
  {
    automationId: Uuid,
    kind: StringEnum(["automation", "endpoint"]),
    name: Type.String({ description: "An endpoint's name is its URL." }),
    ...statsProperties,
  },
  {
    additionalProperties: false,
    examples: [
      {
        automationId: "5c1d7e2f-8a3b-4c6d-9e0f-1a2b3c4d5e6f",
        kind: "endpoint",
        name: "https://crm.example.com/hooks/aula",
        ...statsExample,
      },
    ],
  },
);

export const DeliveryStatsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const DeliveryStatsPage = PageOf(AutomationDeliveryStats);

/*
 * Each figure is a correlated subquery on the automation's row, so the one-automation read and the page of the
 * tenant's automations share them. None grows with history: the pending ones read the partial
 * webhook_deliveries_pending_idx (unfinished rows only; min(created_at) is its first entry), the last hour reads
 * the automation's delivery_stats rows of 60 minutes through their primary key: one per minute and per database
 * session that recorded attempts for it then, so bounded by the workers' connections, not by the traffic.
 */
const unfinished = sql`w.tenant_id = ${automations.tenantId} AND w.automation_id = ${automations.id}
  AND w.completed_at IS NULL`;
const lastHour = sql`s.tenant_id = ${automations.tenantId} AND s.automation_id = ${automations.id}
  AND s.minute >= date_trunc('minute', now(), 'UTC') - interval '59 minutes'`;

const columns = {
  automationId: automations.id,
  kind: automations.kind,
  name: automations.name,
  pending: sql<number>`(SELECT count(*)::int FROM (
    SELECT 1 FROM webhook_deliveries AS w WHERE ${unfinished} LIMIT ${sql.raw(String(PENDING_COUNT_CAP))}) AS p)`,
  oldestPendingAgeSeconds: sql<
    number | null
  >`(SELECT floor(extract(epoch FROM now() - min(w.created_at)))::int
    FROM webhook_deliveries AS w WHERE ${unfinished})`,
  attempts: sql<number>`(SELECT coalesce(sum(s.attempts), 0)::int FROM delivery_stats AS s WHERE ${lastHour})`,
  succeeded: sql<number>`(SELECT coalesce(sum(s.succeeded), 0)::int FROM delivery_stats AS s WHERE ${lastHour})`,
};

interface StatsRow {
  automationId: string;
  kind: string;
  name: string;
  pending: number;
  oldestPendingAgeSeconds: number | null;
  attempts: number;
  succeeded: number;
}

function shape(row: StatsRow): Static<typeof AutomationDeliveryStats> {
  const { attempts, succeeded } = row;
  return {
    automationId: row.automationId,
    kind: row.kind as Kind,
    name: row.name,
    pending: row.pending,
    // A row created by a transaction that started after this read's has a later created_at than now().
    oldestPendingAgeSeconds:
      row.oldestPendingAgeSeconds === null ? null : Math.max(0, row.oldestPendingAgeSeconds),
    lastHour: {
      attempts,
      succeeded,
      successRate: attempts === 0 ? null : Math.round((succeeded / attempts) * 10_000) / 10_000,
    },
  };
}

/** One automation's (or endpoint's, by `kind`) delivery stats; 404 when the tenant has none of that kind. */
export async function readDeliveryStats(
  db: Executor,
  tenantId: string,
  automationId: string,
  kind: Kind,
): Promise<Static<typeof DeliveryStats>> {
  const rows = await db
    .select(columns)
    .from(automations)
    .where(
      and(eq(automations.tenantId, tenantId), eq(automations.id, automationId), eq(automations.kind, kind)),
    );
  if (rows[0] === undefined) throw notFound();
  const { pending, oldestPendingAgeSeconds, lastHour } = shape(rows[0]);
  return { pending, oldestPendingAgeSeconds, lastHour };
}

/**
 * Every automation and endpoint of the tenant with its stats, a page at a time: automations first, then
 * endpoints, each oldest first (the order of automations_tenant_created_idx, so the page is read, not sorted).
 */
export async function listDeliveryStats(
  db: Executor,
  tenantId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const rows = await runPageQuery(db, "delivery_stats", tenantId, {}, window, (p, name) =>
    db
      .select(columns)
      .from(automations)
      .where(eq(automations.tenantId, p.tenantId))
      .orderBy(asc(automations.kind), asc(automations.createdAt), asc(automations.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  const total = await readCounter(db, tenantId, "automations");
  return pageEnvelope((rows as StatsRow[]).map(shape), total, window);
}
