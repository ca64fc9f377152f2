import { describe, expect, it } from "vitest";
import { type ComputeGrade, type ComputeItem, computeCourseScores, round2 } from "./compute.js";

const item = (id: string, position: number, maxPoints: number, categoryId: string | null, extra = {}) =>
  ({
    id,
    position,
    maxPoints,
    categoryId,
    excludedFromFinal: false,
    visibleToStudents: true,
    ...extra,
  }) as ComputeItem;
const posted = "2026-04-01T00:00:00.000Z";
const grade = (
  gradeItemId: string,
  score: number | null,
  extra: Partial<ComputeGrade> = {},
): ComputeGrade => ({
  gradeItemId,
  score,
  overrideScore: null,
  status: "graded",
  postedAt: posted,
  ...extra,
});

describe("the course grade (the rule in compute.ts, by hand)", () => {
  it("weights categories, drops the lowest, leaves excused items out, lets overrides win, counts posted grades", () => {
    // Exams: weight 60, drop the lowest one. Homework: weight 40. An uncategorised item and an excluded one.
    const categories = [
      { id: "exams", weight: 60, dropLowest: 1 },
      { id: "hw", weight: 40, dropLowest: 0 },
    ];
    const items = [
      item("E1", 1, 100, "exams"),
      item("E2", 2, 100, "exams"),
      item("E3", 3, 50, "exams"),
      item("H1", 4, 10, "hw"),
      item("H2", 5, 10, "hw"),
      item("H3", 6, 20, "hw"),
      item("X", 7, 10, "hw", { excludedFromFinal: true }),
      item("U", 8, 10, null),
    ];
    const grades = [
      grade("E1", 80, { postedAt: null }), // hidden from the student
      grade("E2", 50),
      grade("E3", 45, { overrideScore: 35 }), // the override wins: 35 / 50
      grade("H1", 9),
      grade("H2", 0, { status: "excused" }),
      // H3: no grade. X: excluded. U: outside any weighted category.
      grade("X", 0),
      grade("U", 10),
    ];
    // All grades (unposted view):
    //   exams, graded: E1 80%, E2 50%, E3 70%; drop E2 → (80 + 35) / 150 = 76.67%; homework: H1 9/10 = 90%
    //   current = (60 × 115/150 + 40 × 0.9) = 46 + 36 = 82.00
    //   final: exams as above (all graded) 46; homework H1 9 + H3 0 over 10 + 20 = 30% → 40 × 0.3 = 12 → 58.00
    // Posted grades only (E1 hidden):
    //   current: exams E2 50%, E3 70%; drop E2 → 35/50 = 70% → 42; homework 90% → 36; = 78.00
    //   final: exams E1 0%, E2 50%, E3 70%; drop E1 → 85/150 → 60 × 85/150 = 34; homework 12; = 46.00
    expect(computeCourseScores(items, categories, grades)).toEqual({
      currentScore: 78,
      finalScore: 46,
      unpostedCurrentScore: 82,
      unpostedFinalScore: 58,
    });
  });

  it("adds points when no category has a weight; missing and pending count 0 in final only", () => {
    const items = [
      item("A", 1, 10, null),
      item("B", 2, 20, null),
      item("C", 3, 10, null),
      item("D", 4, 10, null),
    ];
    const grades = [
      grade("A", 8),
      grade("B", null, { status: "missing" }),
      grade("C", 5, { status: "pending" }),
      grade("D", null, { status: "excused" }),
    ];
    // current: A alone, 8/10 = 80%. final: (8 + 0 + 0) / (10 + 20 + 10) = 20%.
    expect(computeCourseScores(items, [], grades)).toEqual({
      currentScore: 80,
      finalScore: 20,
      unpostedCurrentScore: 80,
      unpostedFinalScore: 20,
    });
  });

  it("leaves items hidden from students out of what the student sees, and is null when nothing counts", () => {
    const items = [item("A", 1, 3, null), item("B", 2, 10, null, { visibleToStudents: false })];
    // 2/3 = 66.666… → 66.67; B hidden: the student's view is A alone.
    expect(computeCourseScores(items, [], [grade("A", 2), grade("B", 10)])).toEqual({
      currentScore: 66.67,
      finalScore: 66.67,
      unpostedCurrentScore: 92.31, // 12/13
      unpostedFinalScore: 92.31,
    });
    expect(computeCourseScores([], [], [])).toEqual({
      currentScore: null,
      finalScore: null,
      unpostedCurrentScore: null,
      unpostedFinalScore: null,
    });
    expect(computeCourseScores(items, [], []).currentScore).toBeNull();
    expect(computeCourseScores(items, [], []).finalScore).toBe(0);
  });

  it("keeps one item when the drop rule would drop them all, and allows extra credit", () => {
    const categories = [{ id: "q", weight: null, dropLowest: 5 }];
    const items = [item("Q1", 1, 10, "q"), item("Q2", 2, 10, "q")];
    expect(computeCourseScores(items, categories, [grade("Q1", 15), grade("Q2", 1)]).currentScore).toBe(150);
    expect(round2(1.005)).toBe(1.01);
  });
});
