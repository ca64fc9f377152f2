import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import type { CompletionCriteria, LessonContent, LessonType } from "./schemas.js";

type ContentKey = keyof LessonContent;

/** What `content` may carry for each type. `source` types need exactly one of `url` or `mediaId`. */
const SHAPES: Record<LessonType, { allowed: readonly ContentKey[]; required?: ContentKey; source?: true }> = {
  text: { allowed: ["bodyHtml"], required: "bodyHtml" },
  video: { allowed: ["url", "mediaId"], source: true },
  audio: { allowed: ["url", "mediaId"], source: true },
  pdf: { allowed: ["url", "mediaId"], source: true },
  file: { allowed: ["url", "mediaId"], source: true },
  embed: { allowed: ["url"], required: "url" },
  quiz: { allowed: ["instructions"] },
  assignment: { allowed: ["instructions"] },
};

const SUBMITTABLE: readonly LessonType[] = ["quiz", "assignment"];

function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

function contentDetails(type: LessonType, content: LessonContent): DetailKey[] {
  const shape = SHAPES[type];
  const details: DetailKey[] = [];
  for (const key of Object.keys(content) as ContentKey[]) {
    if (!shape.allowed.includes(key)) {
      details.push({ field: `content.${key}`, key: "field.not_for_lesson_type", params: { type } });
    }
  }
  if (shape.required !== undefined && content[shape.required] === undefined) {
    details.push({ field: `content.${shape.required}`, key: "field.required" });
  }
  if (shape.source === true && (content.url === undefined) === (content.mediaId === undefined)) {
    details.push({ field: "content", key: "field.url_or_media" });
  }
  if (content.url !== undefined && shape.allowed.includes("url") && !isHttps(content.url)) {
    details.push({ field: "content.url", key: "field.https_url" });
  }
  return details;
}

function criteriaDetails(type: LessonType, criteria: CompletionCriteria): DetailKey[] {
  const details: DetailKey[] = [];
  if ((criteria.type === "submit" || criteria.type === "min_score") && !SUBMITTABLE.includes(type)) {
    details.push({ field: "completionCriteria.type", key: "field.not_for_lesson_type", params: { type } });
  }
  if (criteria.type === "min_time" && criteria.minSeconds === undefined) {
    details.push({ field: "completionCriteria.minSeconds", key: "field.required" });
  }
  if (criteria.type === "min_score" && criteria.minScorePercent === undefined) {
    details.push({ field: "completionCriteria.minScorePercent", key: "field.required" });
  }
  // A threshold the chosen criterion ignores would be stored and silently never apply.
  if (criteria.type !== "min_time" && criteria.minSeconds !== undefined) {
    details.push({
      field: "completionCriteria.minSeconds",
      key: "field.criteria_only",
      params: { type: "min_time" },
    });
  }
  if (criteria.type !== "min_score" && criteria.minScorePercent !== undefined) {
    details.push({
      field: "completionCriteria.minScorePercent",
      key: "field.criteria_only",
      params: { type: "min_score" },
    });
  }
  return details;
}

export function defaultCriteria(type: LessonType): CompletionCriteria {
  return SUBMITTABLE.includes(type) ? { type: "submit" } : { type: "view" };
}

/**
 * Checks a lesson's type-dependent fields as they will be stored (the request's values over the stored ones), and
 * throws one 400 naming every field at fault.
 */
export function assertLessonShape(
  type: LessonType,
  fields: {
    content?: LessonContent | undefined;
    completionCriteria?: CompletionCriteria | undefined;
    unlockAt: string | null;
    dueAt: string | null;
  },
): void {
  const details = [
    ...(fields.content === undefined ? [] : contentDetails(type, fields.content)),
    ...(fields.completionCriteria === undefined ? [] : criteriaDetails(type, fields.completionCriteria)),
  ];
  if (
    fields.unlockAt !== null &&
    fields.dueAt !== null &&
    Date.parse(fields.dueAt) < Date.parse(fields.unlockAt)
  ) {
    details.push({ field: "dueAt", key: "field.due_before_unlock" });
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
}
