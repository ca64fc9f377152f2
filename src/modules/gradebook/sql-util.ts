import type { SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { getSettings, letterFor } from "../settings/service.js";

export { uuidArray } from "../../db/uuid-array.js";

/** numeric columns arrive as strings from raw statements. */
export function num(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === "number" ? value : Number(value);
}

export type Scale = Parameters<typeof letterFor>[0];

/** The institution's grading scale (`learning.gradingScale`). */
export async function gradingScale(db: Executor, tenantId: string): Promise<Scale> {
  return (await getSettings(db, tenantId)).learning.gradingScale;
}

export function letterOf(scale: Scale, percent: number | null): string | null {
  return percent === null ? null : letterFor(scale, percent);
}
