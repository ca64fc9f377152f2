import type { DetailKey } from "../../platform/errors/app-error.js";
import type { PathCourseInput } from "./schemas.js";

/** A course of a path as stored: ids in canonical (lowercase) form, position and requirement filled in. */
export interface PathCourseRow {
  courseId: string;
  position: number;
  required: boolean;
  prerequisites: string[];
}

/**
 * The path's courses as given, checked for what needs no database: each course once, each position once, at
 * least one required course, prerequisites naming other courses of the same path, and no cycle among them.
 * Answers the rows (in position order) and the details of every problem found.
 */
export function checkCourses(given: readonly PathCourseInput[]): {
  rows: PathCourseRow[];
  details: DetailKey[];
} {
  const details: DetailKey[] = [];
  const rows: PathCourseRow[] = given.map((c, i) => ({
    courseId: c.courseId.toLowerCase(),
    position: c.position ?? i + 1,
    required: c.required ?? true,
    prerequisites: [...new Set((c.prerequisites ?? []).map((p) => p.toLowerCase()))],
  }));
  const ids = new Set<string>();
  const positions = new Set<number>();
  rows.forEach((row, i) => {
    if (ids.has(row.courseId)) {
      details.push({
        field: `courses[${i}].courseId`,
        key: "field.duplicate",
        params: { value: row.courseId },
      });
    }
    ids.add(row.courseId);
    if (positions.has(row.position)) {
      details.push({
        field: `courses[${i}].position`,
        key: "field.duplicate",
        params: { value: String(row.position) },
      });
    }
    positions.add(row.position);
  });
  rows.forEach((row, i) => {
    row.prerequisites.forEach((p, j) => {
      if (p === row.courseId || !ids.has(p)) {
        details.push({
          field: `courses[${i}].prerequisites[${j}]`,
          key: "field.path_prerequisite",
          params: { id: p },
        });
      }
    });
  });
  if (!rows.some((r) => r.required)) details.push({ field: "courses", key: "field.path_required_course" });
  if (details.length === 0) {
    const cycle = findCycle(rows);
    if (cycle !== undefined)
      details.push({ field: "courses", key: "field.path_cycle", params: { ids: cycle.join(", ") } });
  }
  rows.sort((a, b) => a.position - b.position);
  return { rows, details };
}

/** One cycle among the prerequisites (its course ids, first repeated at the end), or undefined when there is none. */
export function findCycle(rows: readonly PathCourseRow[]): string[] | undefined {
  const edges = new Map(rows.map((r) => [r.courseId, r.prerequisites]));
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const seen = state.get(id);
    if (seen === "done") return undefined;
    if (seen === "open") return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, "open");
    stack.push(id);
    for (const next of edges.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    stack.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const row of rows) {
    const cycle = visit(row.courseId);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

/**
 * Which courses are locked for a learner who completed `completed`: a course waits for its prerequisites and, in
 * a sequential path, for every required course placed before it. `rows` are in position order.
 */
export function lockedCourses(
  rows: readonly PathCourseRow[],
  sequential: boolean,
  completed: ReadonlySet<string>,
): Set<string> {
  const locked = new Set<string>();
  let requiredBefore = true;
  for (const row of rows) {
    const waiting = row.prerequisites.some((p) => !completed.has(p)) || (sequential && !requiredBefore);
    if (waiting) locked.add(row.courseId);
    if (row.required && !completed.has(row.courseId)) requiredBefore = false;
  }
  return locked;
}
