import { randomInt } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { activeQuestionsIn, drawFromBank, type PinnedQuestion } from "../question-banks/service.js";
import type { DrawnQuestion } from "./attempt-repo.js";
import type { AttemptRecord } from "./attempt-schemas.js";
import type { QuizRow } from "./repo.js";
import type { SectionRecord } from "./schemas.js";
import { DEFAULT_RANDOM_POINTS } from "./schemas.js";

/** Fisher–Yates with a cryptographic source: the order a student sees must not be guessable. */
export function shuffle<T>(values: readonly T[]): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function pin(question: PinnedQuestion, section: SectionRecord): DrawnQuestion {
  const fallback = section.source.type === "random" ? DEFAULT_RANDOM_POINTS : question.points;
  const drawn: DrawnQuestion = {
    questionId: question.questionId,
    version: question.version,
    sectionId: section.id,
    type: question.type,
    stem: question.stem,
    content: question.content,
    points: section.pointsPerQuestion ?? fallback,
  };
  if (question.type === "matching") {
    drawn.display = { right: shuffle([...new Set((question.content.pairs ?? []).map((p) => p.right))]) };
  }
  // A uniform shuffle, the key's own order included: ruling that order out would give a two-item question away
  // (always shown reversed) and hint at longer ones.
  if (question.type === "ordering") drawn.display = { items: shuffle(question.content.items ?? []) };
  return drawn;
}

/**
 * Draws an attempt's questions, each pinned to its current version: a fixed section's active questions in order,
 * and `pickCount` active questions at random from a random section's bank (fewer when the bank has fewer), never
 * one already in the attempt. Retired questions are never drawn.
 */
export async function drawQuestions(tx: Executor, tenantId: string, quiz: QuizRow): Promise<DrawnQuestion[]> {
  const taken = new Set(quiz.sections.flatMap((s) => s.source.questionIds ?? []));
  const drawn: DrawnQuestion[] = [];
  for (const section of quiz.sections) {
    const { source } = section;
    const picked =
      source.type === "fixed"
        ? await activeQuestionsIn(tx, tenantId, source.questionIds ?? [])
        : await drawFromBank(tx, tenantId, source.bankId ?? "", source.pickCount ?? 0, [...taken]);
    for (const question of picked) {
      taken.add(question.questionId);
      drawn.push(pin(question, section));
    }
  }
  return quiz.shuffleQuestions ? shuffle(drawn) : drawn;
}

/** A drawn question as the person taking the attempt sees it: the stem and choices, never the key. */
export function publicView(q: DrawnQuestion): AttemptRecord["questions"][number] {
  const view: AttemptRecord["questions"][number] = {
    questionId: q.questionId,
    version: q.version,
    type: q.type,
    stem: q.stem,
    points: q.points,
  };
  if (q.content.options !== undefined)
    view.options = q.content.options.map((o) => ({ id: o.id, text: o.text }));
  if (q.type === "matching") {
    view.left = (q.content.pairs ?? []).map((p) => p.left);
    view.right = q.display?.right ?? [];
  }
  if (q.type === "ordering") view.items = q.display?.items ?? [];
  return view;
}
