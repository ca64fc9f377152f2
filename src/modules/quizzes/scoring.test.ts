import { describe, expect, it } from "vitest";
import { credit, fitsType, outcome, type ScorableQuestion, scoreAnswer } from "./scoring.js";

const q = (
  type: ScorableQuestion["type"],
  content: ScorableQuestion["content"],
  points = 2,
): ScorableQuestion => ({
  questionId: "00000000-0000-4000-8000-000000000001",
  version: 3,
  type,
  content,
  points,
});

const options = (correct: string[], ids = ["a", "b", "c"]) =>
  ids.map((id) => ({ id, text: id.toUpperCase(), isCorrect: correct.includes(id), feedback: `about ${id}` }));

describe("scoring", () => {
  it("single_choice and true_false: the one correct id earns everything, anything else nothing", () => {
    const single = q("single_choice", { options: options(["b"]) });
    expect(scoreAnswer(single, "b")).toEqual({
      questionId: single.questionId,
      questionVersion: 3,
      response: "b",
      correct: true,
      pointsAwarded: 2,
      feedback: "about b",
    });
    expect(scoreAnswer(single, "a")).toMatchObject({ correct: false, pointsAwarded: 0, feedback: "about a" });
    expect(scoreAnswer(single, "zzz")).toMatchObject({ correct: false, pointsAwarded: 0, feedback: null });
    const tf = q("true_false", { options: options(["t"], ["t", "f"]) }, 1);
    expect(scoreAnswer(tf, "t")).toMatchObject({ correct: true, pointsAwarded: 1 });
    expect(scoreAnswer(tf, "f")).toMatchObject({ correct: false, pointsAwarded: 0 });
  });

  it("multiple_choice: all or nothing, in any order", () => {
    const multi = q("multiple_choice", { options: options(["a", "c"]) }, 3);
    expect(scoreAnswer(multi, ["c", "a"])).toMatchObject({ correct: true, pointsAwarded: 3 });
    expect(scoreAnswer(multi, ["a"])).toMatchObject({ correct: false, pointsAwarded: 0 });
    expect(scoreAnswer(multi, ["a", "b", "c"])).toMatchObject({ correct: false, pointsAwarded: 0 });
    expect(scoreAnswer(multi, [])).toMatchObject({ correct: false, pointsAwarded: 0 });
  });

  it("short_answer: trimmed and ignoring case, but not ignoring accents", () => {
    const short = q("short_answer", { acceptedAnswers: ["Matriz Identidade", "I"] });
    expect(scoreAnswer(short, "  matriz IDENTIDADE ")).toMatchObject({ correct: true, pointsAwarded: 2 });
    expect(scoreAnswer(short, "i")).toMatchObject({ correct: true });
    expect(scoreAnswer(short, "matriz")).toMatchObject({ correct: false, pointsAwarded: 0 });
    const accent = q("short_answer", { acceptedAnswers: ["função"] });
    expect(credit("short_answer", accent.content, "FUNÇÃO")).toBe(1);
    expect(credit("short_answer", accent.content, "funcao")).toBe(0);
  });

  it("numeric: a value within its tolerance, or a range with both ends included", () => {
    const exact = q("numeric", { numeric: { value: 0.3, tolerance: 0 } });
    expect(scoreAnswer(exact, 0.1 + 0.2)).toMatchObject({ correct: true, pointsAwarded: 2 });
    const tolerant = q("numeric", { numeric: { value: 3.14, tolerance: 0.01 } });
    expect(credit("numeric", tolerant.content, 3.15)).toBe(1);
    expect(credit("numeric", tolerant.content, 3.16)).toBe(0);
    const range = q("numeric", { numeric: { min: 10, max: 20 } });
    expect(credit("numeric", range.content, 10)).toBe(1);
    expect(credit("numeric", range.content, 20)).toBe(1);
    expect(credit("numeric", range.content, 20.5)).toBe(0);
  });

  it("matching: proportional credit per left matched, a repeated left counting once", () => {
    const matching = q(
      "matching",
      {
        pairs: [
          { left: "H2O", right: "água" },
          { left: "NaCl", right: "sal" },
          { left: "CO2", right: "gás carbônico" },
          { left: "O2", right: "oxigênio" },
        ],
      },
      4,
    );
    const all = [
      { left: "H2O", right: "água" },
      { left: "NaCl", right: "sal" },
      { left: "CO2", right: "gás carbônico" },
      { left: "O2", right: "oxigênio" },
    ];
    expect(scoreAnswer(matching, all)).toMatchObject({ correct: true, pointsAwarded: 4 });
    const half = [
      { left: "H2O", right: "água" },
      { left: "NaCl", right: "sal" },
      { left: "CO2", right: "oxigênio" },
    ];
    expect(scoreAnswer(matching, half)).toMatchObject({ correct: false, pointsAwarded: 2 });
    const repeated = [
      { left: "H2O", right: "sal" },
      { left: "H2O", right: "água" },
    ];
    expect(scoreAnswer(matching, repeated)).toMatchObject({ pointsAwarded: 0 });
    const third = q("matching", { pairs: all.slice(0, 3) }, 1);
    expect(scoreAnswer(third, [all[0]])).toMatchObject({ pointsAwarded: 0.33 });
  });

  it("ordering: all or nothing", () => {
    const ordering = q("ordering", { items: ["um", "dois", "três"] });
    expect(scoreAnswer(ordering, ["um", "dois", "três"])).toMatchObject({ correct: true, pointsAwarded: 2 });
    expect(scoreAnswer(ordering, ["dois", "um", "três"])).toMatchObject({ correct: false, pointsAwarded: 0 });
    expect(scoreAnswer(ordering, ["um", "dois"])).toMatchObject({ correct: false, pointsAwarded: 0 });
  });

  it("essay: waits for a person when answered, earns 0 at once when left blank", () => {
    const essay = q("essay", {}, 5);
    expect(scoreAnswer(essay, "Uma matriz é…")).toMatchObject({ correct: null, pointsAwarded: null });
    expect(scoreAnswer(essay, null)).toMatchObject({ correct: false, pointsAwarded: 0 });
    expect(scoreAnswer(essay, "   ")).toMatchObject({ correct: false, pointsAwarded: 0 });
    expect(credit("essay", {}, "text")).toBeNull();
  });

  it("unanswered questions earn nothing", () => {
    expect(scoreAnswer(q("single_choice", { options: options(["a"]) }), null)).toMatchObject({
      response: null,
      correct: false,
      pointsAwarded: 0,
    });
  });

  it("checks the response shape per type; null always fits", () => {
    expect(fitsType("single_choice", "a")).toBe(true);
    expect(fitsType("single_choice", ["a"])).toBe(false);
    expect(fitsType("multiple_choice", ["a", "b"])).toBe(true);
    expect(fitsType("multiple_choice", "a")).toBe(false);
    expect(fitsType("numeric", 3)).toBe(true);
    expect(fitsType("numeric", "3")).toBe(false);
    expect(fitsType("matching", [{ left: "a", right: "b" }])).toBe(true);
    expect(fitsType("matching", [{ left: "a" }])).toBe(false);
    expect(fitsType("ordering", ["a", 1])).toBe(false);
    expect(fitsType("essay", "x")).toBe(true);
    expect(fitsType("short_answer", 1)).toBe(false);
    for (const type of ["single_choice", "numeric", "matching", "essay"] as const) {
      expect(fitsType(type, null)).toBe(true);
    }
  });

  it("totals an attempt: graded and passed at the pass mark, pending while an answer waits", () => {
    expect(outcome([{ pointsAwarded: 3 }, { pointsAwarded: 0 }], 5, 60)).toEqual({
      score: 3,
      maxScore: 5,
      percent: 60,
      passed: true,
      status: "graded",
    });
    expect(outcome([{ pointsAwarded: 2.5 }, { pointsAwarded: 0 }], 5, 60)).toMatchObject({
      percent: 50,
      passed: false,
    });
    expect(outcome([{ pointsAwarded: 2 }, { pointsAwarded: null }], 7, 50)).toEqual({
      score: 2,
      maxScore: 7,
      percent: 28.57,
      passed: null,
      status: "pending_review",
    });
  });
});
