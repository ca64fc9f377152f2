import { sql } from "drizzle-orm";
import { AT, analyze, insertedId, type ListFixture, rare } from "./types.js";

type Db = Parameters<ListFixture["seed"]>[0];

/** `size` knowledge bases, a rare few of one course. */
async function seedKnowledgeBases(db: Db, tenantId: string, size: number) {
  const courseId = await insertedId(
    db,
    sql`INSERT INTO courses (tenant_id, title, status) VALUES (${tenantId}::uuid, 'KB course', 'published') RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO knowledge_bases (tenant_id, name, scope, course_id, created_at, updated_at)
    SELECT ${tenantId}::uuid, 'Base ' || i, CASE WHEN ${rare(size)} THEN 'course' ELSE 'institution' END,
           CASE WHEN ${rare(size)} THEN ${courseId}::uuid END, ${AT}, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "knowledge_bases");
  return { courseId };
}

/** One knowledge base holding `size` text documents (its document count kept as the service keeps it). */
async function seedDocuments(db: Db, tenantId: string, size: number) {
  const kbId = await insertedId(
    db,
    sql`INSERT INTO knowledge_bases (tenant_id, name, document_count) VALUES (${tenantId}::uuid, 'Big', ${size})
        RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO kb_documents (tenant_id, knowledge_base_id, source_type, title, text, content_hash, status,
                              created_at, updated_at)
    SELECT ${tenantId}::uuid, ${kbId}::uuid, 'text', 'Doc ' || i, 'text ' || i, md5(i::text), 'ready', ${AT}, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "kb_documents");
  return { kbId };
}

export const RAG: ListFixture[] = [
  {
    name: "knowledge bases",
    path: "/api/institution/rag/knowledge-bases",
    scopes: ["ai:read"],
    tables: ["knowledge_bases"],
    seed: (db, t, size) => seedKnowledgeBases(db, t.id, size),
    queries: [
      { name: "newest first", query: "" },
      { name: "course", query: "courseId={courseId}", rare: true, filtered: true },
    ],
  },
  {
    name: "knowledge base documents",
    path: "/api/institution/rag/knowledge-bases/:kbId/documents",
    scopes: ["ai:read"],
    tables: ["kb_documents"],
    seed: (db, t, size) => seedDocuments(db, t.id, size),
    queries: [{ name: "newest first", query: "", counter: true }],
  },
];
