import { validationError } from "../../platform/errors/app-error.js";
import { runForField, WorkerPool } from "../../platform/workers/pool.js";
import { type LessonContent, MAX_BODY_HTML } from "./schemas.js";

/**
 * Lesson HTML is sanitised (policy in sanitize-task.js) on a worker thread: 100,000 characters of markup take
 * sanitize-html 80-300 ms of CPU, which on the event loop would hold every tenant's requests. Two threads at most
 * (the service's cores are few), 32 waiting, and 5 s for one body, far beyond what a real lesson needs.
 */
const pool = new WorkerPool({
  module: new URL("./sanitize-task.js", import.meta.url),
  size: 2,
  maxQueue: 32,
  timeoutMs: 5_000,
});

export async function sanitizeLessonHtml(html: string, field = "content.bodyHtml"): Promise<string> {
  const clean = await runForField<string>(pool, field, "sanitizeLessonHtml", html);
  // Sanitising closes what the markup left open (19,000 unclosed <div>s gain 19,000 </div>s), so a body within
  // the limit can come out past it; storing it would answer a body the documented schema does not allow.
  if (clean.length > MAX_BODY_HTML)
    throw validationError(field, "field.max_length", { limit: MAX_BODY_HTML });
  return clean;
}

/** The content as it is stored: a text lesson's `bodyHtml` sanitised, everything else as given. */
export async function storableContent(content: LessonContent): Promise<LessonContent>;
export async function storableContent(content: LessonContent | undefined): Promise<LessonContent | undefined>;
export async function storableContent(
  content: LessonContent | undefined,
): Promise<LessonContent | undefined> {
  if (content?.bodyHtml === undefined) return content;
  return { ...content, bodyHtml: await sanitizeLessonHtml(content.bodyHtml) };
}
