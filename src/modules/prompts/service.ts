import { randomUUID } from "node:crypto";
import type { Db, Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import * as repo from "./repo.js";
import type {
  CreatePromptInput,
  ListPromptsQueryType,
  ModelParamsType,
  PromptRecord,
  UpdatePromptInput,
} from "./schemas.js";
import { checkTemplate, renderTemplate, type VariableDecl } from "./template.js";

const invalid = (details: DetailKey[]) => new AppError("validation_failed", { details });

function normalised(variables: readonly VariableDecl[] | undefined): Required<VariableDecl>[] {
  return (variables ?? []).map((v) => ({
    name: v.name,
    required: v.required ?? true,
    description: v.description ?? null,
  }));
}

function checked(
  template: string,
  variables: Required<VariableDecl>[],
  modelParams: ModelParamsType,
): repo.Content {
  const details = checkTemplate(template, variables);
  if (details.length > 0) throw invalid(details);
  return { template, variables, modelParams };
}

export async function createPrompt(
  db: Db,
  tenantId: string,
  input: CreatePromptInput,
): Promise<PromptRecord> {
  const content = checked(input.template, normalised(input.variables), input.modelParams ?? {});
  const courseId = input.courseId ?? null;
  if (courseId !== null && !(await repo.courseExists(db, tenantId, courseId))) {
    throw invalid([{ field: "courseId", key: "field.invalid" }]);
  }
  const id = randomUUID();
  await repo.mapConflicts(() =>
    db.transaction((tx) =>
      repo.insertPrompt(
        tx,
        tenantId,
        {
          id,
          key: input.key,
          name: input.name.trim(),
          feature: input.feature,
          status: input.status ?? "draft",
          courseId,
        },
        content,
      ),
    ),
  );
  return getPrompt(db, tenantId, id);
}

export async function getPrompt(db: Executor, tenantId: string, id: string): Promise<PromptRecord> {
  const row = await repo.findPrompt(db, tenantId, id);
  if (row === undefined) throw notFound();
  return row;
}

export async function listPrompts(db: Executor, tenantId: string, query: ListPromptsQueryType) {
  const window = pageWindow(query);
  const { rows, total } = await repo.listPrompts(db, tenantId, query, window);
  return cappedPageEnvelope(rows, total, window);
}

/** A change of template, variables or modelParams writes the next version; name and status do not. */
export async function updatePrompt(db: Db, tenantId: string, id: string, input: UpdatePromptInput) {
  await repo.mapConflicts(() =>
    db.transaction(async (tx) => {
      const current = await repo.findPrompt(tx, tenantId, id, true);
      if (current === undefined) throw notFound();
      let version: number | undefined;
      if (input.template !== undefined || input.variables !== undefined || input.modelParams !== undefined) {
        const content = checked(
          input.template ?? current.template,
          input.variables === undefined ? normalised(current.variables) : normalised(input.variables),
          input.modelParams ?? current.modelParams,
        );
        version = current.version + 1;
        await repo.insertVersion(tx, tenantId, id, version, content);
      }
      await repo.updatePrompt(tx, tenantId, id, {
        ...(input.name === undefined ? {} : { name: input.name.trim() }),
        ...(input.status === undefined ? {} : { status: input.status }),
        ...(version === undefined ? {} : { version }),
      });
    }),
  );
  return getPrompt(db, tenantId, id);
}

/** Deleting archives: versions stay, and the ledger keeps naming the prompt. */
export async function archivePrompt(db: Db, tenantId: string, id: string): Promise<void> {
  await getPrompt(db, tenantId, id);
  await repo.updatePrompt(db, tenantId, id, { status: "archived" });
}

export async function listVersions(
  db: Executor,
  tenantId: string,
  id: string,
  query: { page?: number; perPage?: number },
) {
  await getPrompt(db, tenantId, id);
  const window = pageWindow(query);
  const { rows, total } = await repo.listVersions(db, tenantId, id, window);
  return cappedPageEnvelope(rows, total, window);
}

/** Restoring copies an old version's content into a new version: history is never rewritten. */
export async function restoreVersion(db: Db, tenantId: string, id: string, version: number) {
  await db.transaction(async (tx) => {
    const current = await repo.findPrompt(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    const old = await repo.findVersion(tx, tenantId, id, version);
    if (old === undefined) throw notFound();
    await repo.insertVersion(tx, tenantId, id, current.version + 1, old);
    await repo.updatePrompt(tx, tenantId, id, { version: current.version + 1 });
  });
  return getPrompt(db, tenantId, id);
}

/** The content of a version (default: the current one) with the values filled in; no model is called. */
export async function renderPrompt(
  db: Executor,
  tenantId: string,
  id: string,
  values: Record<string, string>,
  version?: number,
) {
  const prompt = await getPrompt(db, tenantId, id);
  const chosen = version ?? prompt.version;
  const content = chosen === prompt.version ? prompt : await repo.findVersion(db, tenantId, id, chosen);
  if (content === undefined) throw invalid([{ field: "version", key: "field.invalid" }]);
  const result = renderTemplate(content.template, content.variables, values);
  if ("details" in result) throw invalid(result.details);
  return { prompt, version: chosen, rendered: result.text, model: content.modelParams.model ?? null };
}
