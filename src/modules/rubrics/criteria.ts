import { randomUUID } from "node:crypto";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { round2 } from "../gradebook/service.js";
import type { CriterionInputType, CriterionRecord } from "./schemas.js";

/**
 * A rubric's criteria as stored and answered, from what a client sent: ids kept or given, ratings highest first,
 * positions 1…n in the order given. Refused (400, every problem named): a rating above its criterion's points,
 * two ratings of a criterion with the same points, an id named twice.
 */
export function normaliseCriteria(
  input: readonly CriterionInputType[],
  at: (index: number) => string = (index) => `criteria[${index}].`,
): CriterionRecord[] {
  const details: DetailKey[] = [];
  const ids = new Set<string>();
  const out = input.map((c, i) => {
    const prefix = at(i);
    const id = c.id?.toLowerCase() ?? randomUUID();
    if (ids.has(id)) details.push({ field: `${prefix}id`, key: "field.duplicate", params: { value: id } });
    ids.add(id);
    const points = round2(c.points);
    const seen = new Set<number>();
    const ratingIds = new Set<string>();
    const ratings = c.ratings.map((r, j) => {
      const rp = round2(r.points);
      const ratingId = r.id?.toLowerCase() ?? randomUUID();
      if (rp > points)
        details.push({
          field: `${prefix}ratings[${j}].points`,
          key: "field.maximum",
          params: { limit: points },
        });
      if (seen.has(rp))
        details.push({
          field: `${prefix}ratings[${j}].points`,
          key: "field.duplicate",
          params: { value: rp },
        });
      if (ratingIds.has(ratingId))
        details.push({
          field: `${prefix}ratings[${j}].id`,
          key: "field.duplicate",
          params: { value: ratingId },
        });
      seen.add(rp);
      ratingIds.add(ratingId);
      return {
        id: ratingId,
        description: r.description,
        longDescription: r.longDescription ?? null,
        points: rp,
      };
    });
    ratings.sort((x, y) => y.points - x.points);
    return {
      id,
      description: c.description,
      longDescription: c.longDescription ?? null,
      points,
      useRange: c.useRange ?? false,
      position: i + 1,
      ratings,
    };
  });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return out;
}

export const pointsOf = (criteria: readonly CriterionRecord[]) =>
  round2(criteria.reduce((sum, c) => sum + c.points, 0));

/** Renumbers positions 1…n in array order. */
export const renumber = (criteria: CriterionRecord[]) => criteria.map((c, i) => ({ ...c, position: i + 1 }));
