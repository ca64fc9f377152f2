import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { AppError } from "../errors/app-error.js";
import type { ErrorBody } from "../errors/handler.js";
import { negotiateLocale } from "../i18n/negotiate.js";
import { translate } from "../i18n/translate.js";
import { StringEnum } from "./schemas.js";

/**
 * Bulk routes answer 200 with one result per item (RESOURCES.md §6.3: integrators must know which items of a
 * batch failed and why). A failed item carries the same envelope the single-item route would have answered.
 */
export const BULK_STATUSES = ["created", "skipped", "failed"] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];
export const BulkStatusSchema = StringEnum(BULK_STATUSES);

export const ItemError = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false }),
      ),
    ),
  },
  { additionalProperties: false, description: "The error envelope this item would have had on its own." },
);

export const BulkSummary = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    created: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export function summarise(results: readonly { status: BulkStatus }[]) {
  const summary = { total: results.length, created: 0, skipped: 0, failed: 0 };
  for (const r of results) summary[r.status]++;
  return summary;
}

/** An item's error in the request's language, shaped like the error envelope of the contract. */
export function itemErrorBody(request: FastifyRequest, err: AppError): ErrorBody {
  const locale = negotiateLocale(request.headers["accept-language"]);
  const body: ErrorBody = { error: err.code, message: translate(locale, err.messageKey, err.params) };
  if (err.details !== undefined) {
    body.details = err.details.map((d) => ({ field: d.field, message: translate(locale, d.key, d.params) }));
  }
  return body;
}

/** Replaces each result's thrown error by its rendered envelope, for the response schema. */
export function renderItemErrors<R extends { error?: AppError }>(
  request: FastifyRequest,
  results: readonly R[],
): (Omit<R, "error"> & { error?: ErrorBody })[] {
  return results.map(({ error, ...rest }) =>
    error === undefined ? rest : { ...rest, error: itemErrorBody(request, error) },
  );
}
