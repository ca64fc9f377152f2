import type { GradeStatus } from "./item-schemas.js";

/**
 * The course grade, as a pure function of a course's categories and items and one student's grades. Every grade
 * write recomputes it for the students it touched, in its transaction (course-grades.ts), so the gradebook reads
 * it stored. The rule (the route descriptions quote it; compute.test.ts checks it against a hand computation):
 *
 * 1. Items marked `excludedFromFinal` never count. An `excused` grade leaves its item out entirely.
 * 2. A grade counts with its effective score: `overrideScore` when set, else `score`. A grade counts as
 *    "graded" when it has an effective score and its status is not `pending`.
 * 3. Current score: over graded items only. Final score: over every item, an item without a graded grade
 *    (none yet, pending, or `missing` without a score) counting 0 of its `maxPoints`.
 * 4. Per category, `dropLowest` drops that many items with the lowest percent (score / maxPoints; ties: the
 *    earlier position, then id) among the items that count in that score, keeping at least one. Items in no
 *    category are never dropped.
 * 5. When any category of the course has a `weight`: each category's percent is Σ score / Σ maxPoints of its
 *    remaining items, and the course grade is Σ(weight × percent) / Σ weight over the categories that have a
 *    percent (at least one remaining item) and a weight above 0. Items in no category, or in a category without
 *    a weight, do not count. Otherwise (points): Σ score / Σ maxPoints × 100 over all remaining items.
 * 6. The result is a percent rounded to 2 decimals (half up), or null when nothing counts (no item, or, for the
 *    current score, nothing graded).
 * 7. Posted view (`currentScore`, `finalScore`: what the student sees): only items visible to students count,
 *    and a grade that is not posted is treated as absent. Unposted view (`unposted…`): every grade, every item.
 */
export interface ComputeItem {
  id: string;
  categoryId: string | null;
  maxPoints: number;
  position: number;
  excludedFromFinal: boolean;
  visibleToStudents: boolean;
}

export interface ComputeCategory {
  id: string;
  weight: number | null;
  dropLowest: number;
}

export interface ComputeGrade {
  gradeItemId: string;
  score: number | null;
  overrideScore: number | null;
  status: GradeStatus;
  postedAt: string | null;
}

export interface CourseScores {
  currentScore: number | null;
  finalScore: number | null;
  unpostedCurrentScore: number | null;
  unpostedFinalScore: number | null;
}

interface Entry {
  item: ComputeItem;
  points: number;
}

export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

export function effectiveScore(g: { score: number | null; overrideScore: number | null }): number | null {
  return g.overrideScore ?? g.score;
}

function byLowestPercent(a: Entry, b: Entry): number {
  const diff = a.points / a.item.maxPoints - b.points / b.item.maxPoints;
  if (diff !== 0) return diff;
  if (a.item.position !== b.item.position) return a.item.position - b.item.position;
  return a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0;
}

/** The entries left after the category's drop rule (at least one stays). */
function afterDrops(entries: Entry[], dropLowest: number): Entry[] {
  const drop = Math.min(dropLowest, entries.length - 1);
  if (drop <= 0) return entries;
  return [...entries].sort(byLowestPercent).slice(drop);
}

function percentOf(entries: readonly Entry[]): number | null {
  let points = 0;
  let max = 0;
  for (const e of entries) {
    points += e.points;
    max += e.item.maxPoints;
  }
  return max > 0 ? (points / max) * 100 : null;
}

/** One score (rules 3–6) over the entries that count in it. */
function scoreOf(entries: readonly Entry[], categories: ReadonlyMap<string, ComputeCategory>): number | null {
  const groups = new Map<string | null, Entry[]>();
  for (const e of entries) {
    const key = e.item.categoryId !== null && categories.has(e.item.categoryId) ? e.item.categoryId : null;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const weighted = [...categories.values()].some((c) => c.weight !== null);
  const kept = new Map<string | null, Entry[]>();
  for (const [key, group] of groups) {
    kept.set(key, key === null ? group : afterDrops(group, categories.get(key)?.dropLowest ?? 0));
  }
  if (!weighted) {
    const result = percentOf([...kept.values()].flat());
    return result === null ? null : round2(result);
  }
  let sum = 0;
  let weights = 0;
  for (const [key, group] of kept) {
    const weight = key === null ? 0 : (categories.get(key)?.weight ?? 0);
    const percent = percentOf(group);
    if (weight <= 0 || percent === null) continue;
    sum += weight * percent;
    weights += weight;
  }
  return weights > 0 ? round2(sum / weights) : null;
}

function view(
  items: readonly ComputeItem[],
  categories: ReadonlyMap<string, ComputeCategory>,
  grades: ReadonlyMap<string, ComputeGrade>,
  posted: boolean,
): { current: number | null; final: number | null } {
  const current: Entry[] = [];
  const final: Entry[] = [];
  for (const item of items) {
    if (item.excludedFromFinal) continue;
    if (posted && !item.visibleToStudents) continue;
    let grade = grades.get(item.id);
    if (posted && grade?.postedAt === null) grade = undefined;
    if (grade?.status === "excused") continue;
    const score = grade === undefined ? null : effectiveScore(grade);
    const graded = score !== null && grade?.status !== "pending";
    if (graded) current.push({ item, points: score });
    final.push({ item, points: graded ? score : 0 });
  }
  return { current: scoreOf(current, categories), final: scoreOf(final, categories) };
}

export function computeCourseScores(
  items: readonly ComputeItem[],
  categories: readonly ComputeCategory[],
  grades: readonly ComputeGrade[],
): CourseScores {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const byItem = new Map(grades.map((g) => [g.gradeItemId, g]));
  const posted = view(items, byId, byItem, true);
  const all = view(items, byId, byItem, false);
  return {
    currentScore: posted.current,
    finalScore: posted.final,
    unpostedCurrentScore: all.current,
    unpostedFinalScore: all.final,
  };
}

/** The rule in words, for route descriptions. */
export const COURSE_GRADE_RULE =
  "The course grade (kept up to date by every grade write, never computed on read): items `excludedFromFinal` " +
  "never count; an `excused` grade leaves its item out; a grade counts with `overrideScore` when set, else " +
  "`score`, and is graded when it has one and is not `pending`. `currentScore` counts graded items only; " +
  "`finalScore` counts every item, an ungraded one (including `missing` without a score) as 0. Per category, " +
  "`dropLowest` drops that many lowest percents among the counted items (ties: earlier position), keeping one. " +
  "When any category has a `weight`, the grade is Σ(weight × category percent) / Σ weight over categories with " +
  "counted items and a weight above 0 (items outside such a category do not count); otherwise it is Σ points / " +
  "Σ maxPoints over all counted items. Percent, 2 decimals, null when nothing counts. `currentScore` and " +
  "`finalScore` count only posted grades of items visible to students (what the student sees); `unposted…` " +
  "count every grade. Letters come from the institution's grading scale (settings `learning.gradingScale`).";
