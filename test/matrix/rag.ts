import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/rows.js";
import { addDocuments } from "../../src/modules/rag/documents.js";
import { createKnowledgeBase } from "../../src/modules/rag/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;

const knowledgeBase = async (h: Harness, t: TestTenant) =>
  (await createKnowledgeBase(h.database.db, t.id, { name: "Matrix" })).id;
const kb = async (h: Harness, t: TestTenant) => ({ kbId: await knowledgeBase(h, t) });
const document = async (h: Harness, t: TestTenant) => {
  const kbId = await knowledgeBase(h, t);
  const added = await addDocuments(
    h.database.db,
    t.id,
    kbId,
    { sourceType: "text", text: "matrix text" },
    { kind: "system" },
  );
  return { kbId, docId: added.data[0]?.id as string };
};

/** The knowledge base's row and its documents: nothing of them may change on a refused request. */
async function snapshot(h: Harness, t: TestTenant, params: Params) {
  const { kbId } = params as Record<string, string>;
  return {
    kb: await queryRows(
      h.database.db,
      sql`SELECT * FROM knowledge_bases WHERE tenant_id = ${t.id} AND id = ${kbId}`,
    ),
    documents: await queryRows(
      h.database.db,
      sql`SELECT id, status, chunk_count FROM kb_documents WHERE tenant_id = ${t.id} AND knowledge_base_id = ${kbId}
        ORDER BY id`,
    ),
  };
}

const BASE = "/api/institution/rag/knowledge-bases";
export const fixtures: Fixtures = {
  [`GET ${BASE}`]: {},
  [`POST ${BASE}`]: { body: { name: "Matrix" } },
  [`GET ${BASE}/:kbId`]: { makeObject: kb, snapshot },
  [`PATCH ${BASE}/:kbId`]: { body: { name: "Renamed" }, makeObject: kb, snapshot },
  [`DELETE ${BASE}/:kbId`]: { makeObject: kb, snapshot },
  [`GET ${BASE}/:kbId/documents`]: { makeObject: kb, snapshot },
  [`POST ${BASE}/:kbId/documents`]: {
    body: { sourceType: "text", text: "more text" },
    makeObject: kb,
    snapshot,
  },
  [`DELETE ${BASE}/:kbId/documents/:docId`]: { makeObject: document, snapshot },
  [`POST ${BASE}/:kbId/reindex`]: { makeObject: kb, snapshot },
  [`POST ${BASE}/:kbId/search`]: { body: { query: "matrix" }, makeObject: kb, snapshot },
};
