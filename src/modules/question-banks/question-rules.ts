import type { DetailKey } from "../../platform/errors/app-error.js";
import type { QuestionType } from "./question-schemas.js";

export interface ChoiceOptionKey {
  id: string;
  text: string;
  isCorrect: boolean;
  feedback?: string | null;
}

export type NumericKey = { value: number; tolerance: number } | { min: number; max: number };

/** A question's answer key as stored in `questions.content`: only the field its type uses. */
export interface QuestionContent {
  options?: ChoiceOptionKey[];
  acceptedAnswers?: string[];
  numeric?: NumericKey;
  pairs?: { left: string; right: string }[];
  items?: string[];
}

/** The body fields that carry a key, as sent (numeric still in its loose input form). */
export interface KeyInput {
  options?: ChoiceOptionKey[];
  acceptedAnswers?: string[];
  numeric?: { value?: number; tolerance?: number; min?: number; max?: number };
  pairs?: { left: string; right: string }[];
  items?: string[];
}

export const KEY_FIELDS = ["options", "acceptedAnswers", "numeric", "pairs", "items"] as const;
type KeyField = (typeof KEY_FIELDS)[number];

/** The one key field each type uses; an essay has no key and is graded by hand. */
export const KEY_FIELD_OF: Record<QuestionType, KeyField | null> = {
  single_choice: "options",
  multiple_choice: "options",
  true_false: "options",
  short_answer: "acceptedAnswers",
  numeric: "numeric",
  matching: "pairs",
  ordering: "items",
  essay: null,
};

function duplicates<T>(
  values: readonly T[],
  key: (v: T) => string,
  field: (i: number) => string,
): DetailKey[] {
  const seen = new Set<string>();
  const out: DetailKey[] = [];
  values.forEach((v, i) => {
    const k = key(v);
    if (seen.has(k)) out.push({ field: field(i), key: "field.duplicate", params: { value: k } });
    seen.add(k);
  });
  return out;
}

function checkOptions(type: QuestionType, options: ChoiceOptionKey[], at: string): DetailKey[] {
  const out = duplicates(
    options,
    (o) => o.id,
    (i) => `${at}options[${i}].id`,
  );
  const correct = options.filter((o) => o.isCorrect).length;
  if (type === "true_false" && options.length !== 2) {
    out.push({ field: `${at}options`, key: "field.max_items", params: { limit: 2 } });
  }
  if (type === "multiple_choice" ? correct < 1 : correct !== 1) {
    const key = type === "multiple_choice" ? "field.correct_options_some" : "field.correct_options_one";
    out.push({ field: `${at}options`, key });
  }
  return out;
}

function normaliseNumeric(input: NonNullable<KeyInput["numeric"]>, at: string): NumericKey | DetailKey {
  const { value, tolerance, min, max } = input;
  const byValue = value !== undefined && min === undefined && max === undefined;
  const byRange = value === undefined && tolerance === undefined && min !== undefined && max !== undefined;
  if (byValue) return { value, tolerance: tolerance ?? 0 };
  if (!byRange) return { field: `${at}numeric`, key: "field.numeric_form" };
  if (min > max) return { field: `${at}numeric.min`, key: "field.range_order" };
  return { min, max };
}

/**
 * Checks the answer key a question of `type` would have and returns it normalised, or the details naming what is
 * wrong (prefixed with `at`, e.g. `items[3].`). Fields the type does not use are refused rather than ignored.
 */
export function checkKey(
  type: QuestionType,
  input: KeyInput,
  at = "",
): { content: QuestionContent; details: DetailKey[] } {
  const wanted = KEY_FIELD_OF[type];
  const details: DetailKey[] = [];
  for (const field of KEY_FIELDS) {
    if (field !== wanted && input[field] !== undefined) {
      details.push({ field: `${at}${field}`, key: "field.not_for_type", params: { type } });
    }
  }
  if (wanted === null) return { content: {}, details };
  if (input[wanted] === undefined) {
    details.push({ field: `${at}${wanted}`, key: "field.required" });
    return { content: {}, details };
  }
  switch (wanted) {
    case "options":
      details.push(...checkOptions(type, input.options ?? [], at));
      return { content: { options: input.options }, details };
    case "acceptedAnswers":
      return { content: { acceptedAnswers: input.acceptedAnswers }, details };
    case "numeric": {
      const numeric = normaliseNumeric(input.numeric ?? {}, at);
      if ("field" in numeric) return { content: {}, details: [...details, numeric] };
      return { content: { numeric }, details };
    }
    case "pairs": {
      const pairs = input.pairs ?? [];
      details.push(
        ...duplicates(
          pairs,
          (p) => p.left,
          (i) => `${at}pairs[${i}].left`,
        ),
      );
      return { content: { pairs }, details };
    }
    case "items": {
      const items = input.items ?? [];
      details.push(
        ...duplicates(
          items,
          (s) => s,
          (i) => `${at}items[${i}]`,
        ),
      );
      return { content: { items }, details };
    }
  }
}
