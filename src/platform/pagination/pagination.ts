import { type Static, type TSchema, Type } from "typebox";

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

/** `page` and `perPage` for every list; `perPage` above 100 is served as 100 rather than refused. */
export const PageQuery = {
  // Bounded so that the offset stays far inside PostgreSQL's bigint (10 million pages of 100).
  page: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1, description: "1-based page number." }),
  perPage: Type.Integer({
    minimum: 1,
    default: DEFAULT_PER_PAGE,
    description: `Items per page; values above ${MAX_PER_PAGE} are served as ${MAX_PER_PAGE}.`,
  }),
};

export const Pagination = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    perPage: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE }),
    total: Type.Integer({ minimum: 0 }),
    totalPages: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** A page of `item`; its documented example is a one-item page of the item's own example. */
export function PageOf<T extends TSchema>(item: T) {
  const itemExamples = (item as { examples?: unknown[] }).examples;
  const examples =
    itemExamples === undefined || itemExamples.length === 0
      ? undefined
      : [{ data: [itemExamples[0]], pagination: { page: 1, perPage: 20, total: 1, totalPages: 1 } }];
  return Type.Object(
    { data: Type.Array(item), pagination: Pagination },
    { additionalProperties: false, ...(examples ? { examples } : {}) },
  );
}

export interface PageWindow {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

export function pageWindow(query: { page?: number; perPage?: number }): PageWindow {
  const page = query.page ?? 1;
  const perPage = Math.min(query.perPage ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

export function pageEnvelope<T>(data: T[], total: number, window: PageWindow) {
  return {
    data,
    pagination: {
      page: window.page,
      perPage: window.perPage,
      total,
      totalPages: Math.ceil(total / window.perPage),
    },
  } satisfies { data: T[]; pagination: Static<typeof Pagination> };
}
