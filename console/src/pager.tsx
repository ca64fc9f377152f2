import { format, useI18n } from "./i18n.js";

interface Pagination {
  total: number;
  totalPages: number;
  totalRelation?: "eq" | "gte";
}
export interface PagerWords {
  pageOf: string;
  previous: string;
  next: string;
  pagination: string;
}

/** Previous and next around "page n of m" for a list's page envelope (a capped total shown as "n+"). */
export function Pager(props: {
  page: number;
  pagination: Pagination;
  words: PagerWords;
  onPage: (page: number) => void;
}) {
  const { page, pagination, words, onPage } = props;
  const { language } = useI18n();
  const number = (n: number) => new Intl.NumberFormat(language).format(n);
  return (
    <nav className="pages" aria-label={words.pagination}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {words.previous}
      </button>
      <span>
        {format(words.pageOf, {
          page: number(page),
          pages: number(Math.max(1, pagination.totalPages)),
          total: `${number(pagination.total)}${pagination.totalRelation === "gte" ? "+" : ""}`,
        })}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={page >= pagination.totalPages}
        onClick={() => onPage(page + 1)}
      >
        {words.next}
      </button>
    </nav>
  );
}
