/**
 * Automatic scoring of quiz answers: pure functions of a question's pinned answer key and a response, so every
 * rule is unit-tested without a database. Essays are never scored here: they wait for a person.
 */
import type { QuestionContent, QuestionType } from "../question-banks/service.js";

/** A question as an attempt drew it: the version's key and the points it is worth in this quiz. */
export interface ScorableQuestion {
  questionId: string;
  version: number;
  type: QuestionType;
  content: QuestionContent;
  points: number;
}

export interface ScoredAnswer {
  questionId: string;
  questionVersion: number;
  /** As sent; null when the question was left unanswered. */
  response: unknown;
  /** null while a person has to judge it (an essay). */
  correct: boolean | null;
  /** null while a person has to grade it. */
  pointsAwarded: number | null;
  feedback: string | null;
}

export type AttemptOutcome = {
  score: number;
  maxScore: number;
  percent: number;
  /** null while any answer waits for manual grading. */
  passed: boolean | null;
  status: "graded" | "pending_review";
};

/** Scores and percentages are kept to two decimals, as the database stores them. */
export const round2 = (n: number): number => Math.round((n + Number.EPSILON) * 100) / 100;

const isString = (v: unknown): v is string => typeof v === "string";
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isPairArray = (v: unknown): v is { left: string; right: string }[] =>
  Array.isArray(v) &&
  v.every(
    (p) =>
      p !== null &&
      typeof p === "object" &&
      isString((p as { left?: unknown }).left) &&
      isString((p as { right?: unknown }).right),
  );

/**
 * Whether `response` has the shape a `type` question takes: one choice id (single_choice, true_false), an array
 * of ids (multiple_choice), text (short_answer, essay), a number (numeric), `[{left, right}]` (matching), the
 * items in order (ordering). null is always accepted and means unanswered.
 */
export function fitsType(type: QuestionType, response: unknown): boolean {
  if (response === null) return true;
  switch (type) {
    case "single_choice":
    case "true_false":
    case "short_answer":
    case "essay":
      return isString(response);
    case "multiple_choice":
    case "ordering":
      return isStringArray(response);
    case "numeric":
      return typeof response === "number" && Number.isFinite(response);
    case "matching":
      return isPairArray(response);
  }
}

const normalise = (text: string) => text.trim().toLocaleLowerCase();

/** The share of the question's points a response earns, from 0 to 1; null for essays. */
export function credit(type: QuestionType, content: QuestionContent, response: unknown): number | null {
  if (type === "essay") return null;
  if (response === null || !fitsType(type, response)) return 0;
  switch (type) {
    case "single_choice":
    case "true_false":
      return content.options?.some((o) => o.isCorrect && o.id === response) ? 1 : 0;
    case "multiple_choice": {
      // All or nothing: exactly the correct options, none missing and none extra.
      const chosen = new Set(response as string[]);
      const correct = new Set((content.options ?? []).filter((o) => o.isCorrect).map((o) => o.id));
      return chosen.size === correct.size && [...chosen].every((id) => correct.has(id)) ? 1 : 0;
    }
    case "short_answer": {
      const given = normalise(response as string);
      return (content.acceptedAnswers ?? []).some((a) => normalise(a) === given) ? 1 : 0;
    }
    case "numeric": {
      const n = response as number;
      const key = content.numeric;
      if (key === undefined) return 0;
      // A tiny allowance so that 0.1 + 0.2 style rounding never fails an exact answer.
      const slack = 1e-9;
      if ("value" in key) return Math.abs(n - key.value) <= key.tolerance + slack ? 1 : 0;
      return n >= key.min - slack && n <= key.max + slack ? 1 : 0;
    }
    case "matching": {
      // Proportional: each left matched to its right earns its share; a left answered twice counts once.
      const pairs = content.pairs ?? [];
      const given = new Map<string, string>();
      for (const p of response as { left: string; right: string }[])
        if (!given.has(p.left)) given.set(p.left, p.right);
      const right = pairs.filter((p) => given.get(p.left) === p.right).length;
      return pairs.length === 0 ? 0 : right / pairs.length;
    }
    case "ordering": {
      const items = content.items ?? [];
      const given = response as string[];
      return given.length === items.length && given.every((item, i) => item === items[i]) ? 1 : 0;
    }
  }
}

/** The feedback an author attached to the options a choice response picked. */
function optionFeedback(content: QuestionContent, response: unknown): string | null {
  if (content.options === undefined || response === null) return null;
  const chosen = new Set(Array.isArray(response) ? response : [response]);
  const notes = content.options
    .filter((o) => chosen.has(o.id) && o.feedback)
    .map((o) => o.feedback as string);
  return notes.length === 0 ? null : notes.join("\n");
}

/** Scores one answer. An unanswered essay earns 0 at once: there is nothing for a person to read. */
export function scoreAnswer(question: ScorableQuestion, response: unknown): ScoredAnswer {
  const base = { questionId: question.questionId, questionVersion: question.version, response };
  if (question.type === "essay") {
    if (response === null || (isString(response) && response.trim() === "")) {
      return { ...base, correct: false, pointsAwarded: 0, feedback: null };
    }
    return { ...base, correct: null, pointsAwarded: null, feedback: null };
  }
  const share = credit(question.type, question.content, response) ?? 0;
  return {
    ...base,
    correct: share === 1,
    pointsAwarded: round2(question.points * share),
    feedback: optionFeedback(question.content, response),
  };
}

/**
 * The attempt's totals. While any answer waits for a person the attempt is `pending_review`, its score counts
 * what is graded so far and `passed` is null; once none waits it is `graded` and passes at `passPercent`.
 */
export function outcome(
  answers: readonly Pick<ScoredAnswer, "pointsAwarded">[],
  maxScore: number,
  passPercent: number,
): AttemptOutcome {
  const score = round2(answers.reduce((sum, a) => sum + (a.pointsAwarded ?? 0), 0));
  const percent = maxScore > 0 ? round2((score / maxScore) * 100) : 0;
  const pending = answers.some((a) => a.pointsAwarded === null);
  return {
    score,
    maxScore: round2(maxScore),
    percent,
    passed: pending ? null : percent >= passPercent,
    status: pending ? "pending_review" : "graded",
  };
}
