import { and, asc, eq } from "drizzle-orm";
import { type Static, Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { submissionComments } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf, cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { PageQuery, pageWindow } from "../../platform/pagination/pagination.js";
import { assertTeaches } from "../gradebook/service.js";
import { findSubmission } from "./submission-repo.js";
import { learnerOf } from "./submissions.js";

export const MAX_COMMENT = 10_000;

export const Comment = Type.Object(
  {
    id: Uuid,
    submissionId: Uuid,
    author: Type.Object(
      { type: StringEnum(["user", "api_key"] as const), id: Uuid },
      {
        additionalProperties: false,
        description: "The user (student or staff) or the API key that wrote it.",
      },
    ),
    body: Type.String(),
    createdAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "7d9f1b3c-5e7a-4b2d-8f0a-2c4e6a8b0d1f",
        submissionId: "6c8e0a2b-4d6f-4a1b-9c3d-5e7f9a1b3c5d",
        author: { type: "user", id: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b" },
        body: "Revise a conclusão.",
        createdAt: "2026-04-12T10:05:00.000Z",
      },
    ],
  },
);
export type CommentRecord = Static<typeof Comment>;
export const CommentPage = CappedPageOf(Comment);

export const CreateCommentBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: MAX_COMMENT }) },
  { additionalProperties: false, examples: [{ body: "Revise a conclusão." }] },
);
export const ListCommentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

const columns = {
  id: submissionComments.id,
  submissionId: submissionComments.submissionId,
  author: submissionComments.author,
  body: submissionComments.body,
  createdAt: submissionComments.createdAt,
};

/** The submission, when this principal may read it: its own student, or staff teaching its course (403). */
async function readable(db: Executor, tenantId: string, principal: Principal, id: string) {
  const row = await findSubmission(db, tenantId, id);
  if (row === undefined) throw notFound();
  const learner = learnerOf(principal);
  if (learner !== undefined && row.userId !== learner) throw notFound();
  if (learner === undefined) await assertTeaches(db, tenantId, principal, row.courseId);
  return row;
}

/** A comment by the submission's student or the course's staff (or a key). */
export async function addComment(
  db: Executor,
  tenantId: string,
  principal: Principal,
  submissionId: string,
  body: string,
): Promise<CommentRecord> {
  await readable(db, tenantId, principal, submissionId);
  const author =
    principal.kind === "session"
      ? { type: "user" as const, id: principal.userId }
      : { type: "api_key" as const, id: principal.keyId };
  const rows = await db
    .insert(submissionComments)
    .values({ tenantId, submissionId, author, body })
    .returning(columns);
  return rows[0] as CommentRecord;
}

/** Oldest first; the total is the submission's counter. */
export async function listComments(
  db: Executor,
  tenantId: string,
  principal: Principal,
  submissionId: string,
  query: { page?: number; perPage?: number },
) {
  await readable(db, tenantId, principal, submissionId);
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    runPageQuery(db, "submission_comment", tenantId, { submission: submissionId }, window, (p, name) =>
      db
        .select(columns)
        .from(submissionComments)
        .where(
          and(
            eq(submissionComments.tenantId, p.tenantId),
            eq(submissionComments.submissionId, p.submission as Bindable),
          ),
        )
        .orderBy(asc(submissionComments.createdAt), asc(submissionComments.id))
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    ),
    readCounter(db, tenantId, `submission_comments:submission_id:${submissionId}`),
  ]);
  return cappedPageEnvelope(rows as CommentRecord[], exactTotal(total), window);
}
