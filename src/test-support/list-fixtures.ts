import { AI } from "./list-fixtures/ai.js";
import { ASSESSMENT } from "./list-fixtures/assessment.js";
import { ASSIGNMENTS } from "./list-fixtures/assignments.js";
import { CERTIFICATES } from "./list-fixtures/certificates.js";
import { GAMIFICATION } from "./list-fixtures/gamification.js";
import { GRADEBOOK } from "./list-fixtures/gradebook.js";
import { INTEGRATIONS } from "./list-fixtures/integrations.js";
import { JOBS } from "./list-fixtures/jobs.js";
import { LEARNING } from "./list-fixtures/learning.js";
import { LEARNING_PATHS } from "./list-fixtures/learning-paths.js";
import { PEOPLE } from "./list-fixtures/people.js";
import { PLATFORM } from "./list-fixtures/platform.js";
import { RAG } from "./list-fixtures/rag.js";
import { RUBRICS } from "./list-fixtures/rubrics.js";
import type { ListFixture, ListQuery, Seeded } from "./list-fixtures/types.js";

export type { ListFixture, ListQuery, Seeded, SeedTenant } from "./list-fixtures/types.js";

/**
 * Every list route of the API (a GET answering `{ data, pagination }`), each with the rows to fill a tenant with
 * and the requests to measure (issue 20). test/list-plans.test.ts explains each request's statements at a large
 * size and fails when the app registers a list that is neither here nor in LISTS_ELSEWHERE; bench/lists.ts
 * times them at 1,000 rows against a large tenant.
 */
export const LIST_FIXTURES: ListFixture[] = [
  ...PEOPLE,
  ...LEARNING,
  ...LEARNING_PATHS,
  ...ASSESSMENT,
  ...GRADEBOOK,
  ...RUBRICS,
  ...ASSIGNMENTS,
  ...PLATFORM,
  ...INTEGRATIONS,
  ...CERTIFICATES,
  ...JOBS,
  ...GAMIFICATION,
  ...RAG,
  ...AI,
];

/**
 * Lists proven elsewhere, with their own seeds and windows (the drive's folder children, live classes and their
 * occurrences, the calendar's agenda): the route check accepts them without an entry here.
 */
export const LISTS_ELSEWHERE: readonly string[] = [
  // A cursor list ({perPage, next}, no page numbers): src/modules/events/list.test.ts reads its rows at 50,000.
  "/api/institution/events",
  "/api/institution/drive/folders/:id/children",
  "/api/institution/live-classes",
  "/api/institution/live-classes/:id/occurrences",
  "/api/institution/calendar/events",
  // bench/leaderboard.ts reads page 1 at 1,000 and 100,000 learners (the standings' own index, no sort).
  "/api/institution/gamification/leaderboard",
];

/** The URL of `query`'s page 1 (or `page`) at `perPage`, with the seed's ids in the path and the query. */
export function listUrl(
  fixture: ListFixture,
  seeded: Seeded,
  query: ListQuery,
  perPage: number,
  page = 1,
): string {
  const fill = (text: string) =>
    text.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(seeded[key] ?? `{${key}}`));
  const path = fixture.path.replace(/:(\w+)/g, (_, key: string) => seeded[key] ?? `:${key}`);
  const parts = [`page=${page}`, `perPage=${perPage}`, ...(query.query === "" ? [] : [fill(query.query)])];
  return `${path}?${parts.join("&")}`;
}
