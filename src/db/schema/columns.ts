import { customType, uuid } from "drizzle-orm/pg-core";

/**
 * PostgreSQL renders timestamptz as `2026-11-22 07:34:37.12+00` (the session runs in UTC). Clients get ISO 8601
 * strings, and turning the text into ISO here avoids building a Date per row per request, which measured slower
 * than auth and rate limiting together.
 */
export function toIso(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(?:\+00(?::?00)?|Z)$/.exec(value);
  if (m === null) return new Date(value).toISOString();
  const ms = (m[3] ?? "").padEnd(3, "0").slice(0, 3);
  return `${m[1]}T${m[2]}.${ms}Z`;
}

/** `timestamp(3) with time zone`, read and written as an ISO 8601 UTC string. */
export const isoTimestamp = customType<{ data: string; driverData: string | Date }>({
  dataType: () => "timestamp(3) with time zone",
  fromDriver: toIso,
  toDriver: (value) => value,
});

/** Every tenant-owned table starts with this column, first in its primary key. */
export const tenantIdColumn = () => uuid("tenant_id").notNull();
