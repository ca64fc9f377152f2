import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { round2 } from "../gradebook/service.js";
import type { CreateAssessmentInput, CriterionScoreRecord } from "./assessment-schemas.js";
import type { CriterionRecord, RatingRecord } from "./schemas.js";

type ScoreInput = CreateAssessmentInput["criterionScores"][number];

/** The points a rating covers with `useRange`: above the next lower rating's, up to its own (the lowest from 0). */
function rangeOf(
  ratings: readonly RatingRecord[],
  index: number,
): { min: number; max: number; open: boolean } {
  const rating = ratings[index] as RatingRecord;
  const lower = ratings[index + 1];
  return lower === undefined
    ? { min: 0, max: rating.points, open: false }
    : { min: lower.points, max: rating.points, open: true };
}
const within = (points: number, r: { min: number; max: number; open: boolean }) =>
  points <= r.max && (r.open ? points > r.min : points >= r.min);

/** Points and rating of one score, or what is wrong with it. */
function scoreOne(
  criterion: CriterionRecord,
  score: ScoreInput,
  freeForm: boolean,
  at: string,
): { ratingId: string | null; points: number } | DetailKey {
  const points = round2(score.points);
  const ratings = criterion.ratings;
  const ratingIndex =
    score.ratingId === undefined || score.ratingId === null
      ? -1
      : ratings.findIndex((r) => r.id === score.ratingId?.toLowerCase());
  if (score.ratingId !== undefined && score.ratingId !== null && ratingIndex < 0)
    return { field: `${at}.ratingId`, key: "field.unknown_rating", params: { id: score.ratingId } };
  const rating = ratings[ratingIndex];
  const outside = (min: number, max: number): DetailKey => ({
    field: `${at}.points`,
    key: "field.rubric_points",
    params: { min, max },
  });
  if (freeForm || (criterion.useRange && rating === undefined)) {
    if (points > criterion.points) return outside(0, criterion.points);
    const covering = ratings.findIndex((_, i) => within(points, rangeOf(ratings, i)));
    return { ratingId: rating?.id ?? ratings[covering]?.id ?? null, points };
  }
  if (criterion.useRange && rating !== undefined) {
    const range = rangeOf(ratings, ratingIndex);
    return within(points, range) ? { ratingId: rating.id, points } : outside(range.min, range.max);
  }
  if (rating !== undefined)
    return rating.points === points ? { ratingId: rating.id, points } : outside(rating.points, rating.points);
  const matching = ratings.find((r) => r.points === points);
  if (matching === undefined)
    return {
      field: `${at}.points`,
      key: "field.enum",
      params: { values: ratings.map((r) => r.points).join(", ") },
    };
  return { ratingId: matching.id, points };
}

/**
 * Checks an assessment's scores against a version's criteria: one score per criterion, each the points of a
 * rating (the chosen one, or any), or within a rating's range (`useRange`), or anywhere from 0 to the criterion's
 * points (free-form comments). Answers the scores in criterion order and their total; 400 naming every problem.
 */
export function scoreAssessment(
  criteria: readonly CriterionRecord[],
  freeForm: boolean,
  scores: readonly ScoreInput[],
): { scores: CriterionScoreRecord[]; total: number } {
  const details: DetailKey[] = [];
  const byId = new Map(criteria.map((c) => [c.id, c]));
  const given = new Map<string, CriterionScoreRecord>();
  scores.forEach((score, k) => {
    const at = `criterionScores[${k}]`;
    const id = score.criterionId.toLowerCase();
    const criterion = byId.get(id);
    if (criterion === undefined) {
      details.push({ field: `${at}.criterionId`, key: "field.unknown_criterion", params: { id } });
      return;
    }
    if (given.has(id)) {
      details.push({ field: `${at}.criterionId`, key: "field.duplicate", params: { value: id } });
      return;
    }
    const result = scoreOne(criterion, score, freeForm, at);
    if ("field" in result) details.push(result);
    else given.set(id, { criterionId: id, ...result, comment: score.comment ?? null });
  });
  for (const c of criteria)
    if (!given.has(c.id) && !scores.some((s) => s.criterionId.toLowerCase() === c.id))
      details.push({ field: "criterionScores", key: "field.criterion_unscored", params: { id: c.id } });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const ordered = criteria.map((c) => given.get(c.id) as CriterionScoreRecord);
  return { scores: ordered, total: round2(ordered.reduce((sum, s) => sum + s.points, 0)) };
}
