import { randomUUID } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { banksExist, questionsExist } from "../question-banks/service.js";
import { DEFAULT_RANDOM_POINTS, type SectionInputType, type SectionRecord } from "./schemas.js";

/** The rules a source's shape cannot say in JSON Schema: which fields each type takes, and no repeats. */
function shapeSections(input: readonly SectionInputType[]): {
  sections: SectionRecord[];
  details: DetailKey[];
} {
  const details: DetailKey[] = [];
  const sectionIds = new Set<string>();
  const questionIds = new Set<string>();
  const sections = input.map((section, i): SectionRecord => {
    const at = `sections[${i}]`;
    const id = section.id ?? randomUUID();
    if (sectionIds.has(id))
      details.push({ field: `${at}.id`, key: "field.duplicate", params: { value: id } });
    sectionIds.add(id);
    // Ids are compared as text from here on (duplicates, lookups, drawing): their canonical lowercase form.
    const { type, pickCount } = section.source;
    const ids = section.source.questionIds?.map((qid) => qid.toLowerCase());
    const bankId = section.source.bankId?.toLowerCase();
    const notFor = (field: string) =>
      details.push({ field: `${at}.source.${field}`, key: "field.not_for_type", params: { type } });
    const required = (field: string) =>
      details.push({ field: `${at}.source.${field}`, key: "field.required" });
    const title = section.title ?? null;
    if (type === "fixed") {
      if (bankId !== undefined) notFor("bankId");
      if (pickCount !== undefined) notFor("pickCount");
      if (ids === undefined) required("questionIds");
      (ids ?? []).forEach((qid, j) => {
        if (questionIds.has(qid)) {
          details.push({
            field: `${at}.source.questionIds[${j}]`,
            key: "field.duplicate",
            params: { value: qid },
          });
        }
        questionIds.add(qid);
      });
      return {
        id,
        title,
        source: { type, questionIds: ids ?? [] },
        pointsPerQuestion: section.pointsPerQuestion ?? null,
      };
    }
    if (ids !== undefined) notFor("questionIds");
    if (bankId === undefined) required("bankId");
    if (pickCount === undefined) required("pickCount");
    return {
      id,
      title,
      source: { type, bankId: bankId ?? "", pickCount: pickCount ?? 0 },
      pointsPerQuestion: section.pointsPerQuestion ?? DEFAULT_RANDOM_POINTS,
    };
  });
  return { sections, details };
}

/**
 * Checks and normalises a quiz's sections inside the caller's transaction: every named question and bank must be
 * the tenant's (400 naming the field), and the banks involved stay locked until commit so none is deleted under
 * a quiz being saved.
 */
export async function prepareSections(
  tx: Executor,
  tenantId: string,
  input: readonly SectionInputType[],
): Promise<SectionRecord[]> {
  const { sections, details } = shapeSections(input);
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const fixed = sections.flatMap((s) => s.source.questionIds ?? []);
  const banks = [
    ...new Set(sections.flatMap((s) => (s.source.bankId === undefined ? [] : [s.source.bankId]))),
  ];
  const missingQuestions = new Set(await questionsExist(tx, tenantId, fixed));
  const missingBanks = new Set(await banksExist(tx, tenantId, banks));
  sections.forEach((s, i) => {
    (s.source.questionIds ?? []).forEach((id, j) => {
      if (missingQuestions.has(id)) {
        details.push({
          field: `sections[${i}].source.questionIds[${j}]`,
          key: "field.unknown_question",
          params: { id },
        });
      }
    });
    const bankId = s.source.bankId;
    if (bankId !== undefined && missingBanks.has(bankId)) {
      details.push({
        field: `sections[${i}].source.bankId`,
        key: "field.unknown_question_bank",
        params: { id: bankId },
      });
    }
  });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return sections;
}

/**
 * What an attempt at these sections is worth and how many questions it draws, from the questions as they are now:
 * a fixed section counts its active questions (retired ones are skipped when drawing), a random one its pickCount.
 */
export function totals(
  sections: readonly SectionRecord[],
  activePoints: ReadonlyMap<string, number>,
): { pointsPossible: number; questionCount: number } {
  let points = 0;
  let count = 0;
  for (const s of sections) {
    if (s.source.type === "random") {
      const n = s.source.pickCount ?? 0;
      count += n;
      points += n * (s.pointsPerQuestion ?? DEFAULT_RANDOM_POINTS);
      continue;
    }
    for (const id of s.source.questionIds ?? []) {
      const own = activePoints.get(id);
      if (own === undefined) continue;
      count += 1;
      points += s.pointsPerQuestion ?? own;
    }
  }
  return { pointsPossible: Math.round(points * 100) / 100, questionCount: count };
}
