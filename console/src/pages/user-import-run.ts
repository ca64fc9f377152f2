import type { Aula } from "../../../sdk/src/client.js";
import { AulaError } from "../../../sdk/src/errors.js";
import type { CsvUser } from "../csv.js";

type BulkItem = Parameters<Aula["users"]["bulk"]>[0]["body"]["items"][number];

/** What became of one record of the file. */
export interface RowOutcome {
  user: CsvUser;
  status: "created" | "skipped" | "failed";
  /** The API's own words for a failed record (its message, then each detail). */
  messages: string[];
}

/** The API's batch limit (MAX_BULK_USERS). */
const BATCH = 1000;
const ITEM_FIELD = /^items\[(\d+)\]\.?(.*)$/;

type Call = <T>(call: (aula: Aula) => PromiseLike<T>) => Promise<T>;

/**
 * POST /users/bulk with the file's records, in batches of the API's limit. The route validates a batch as a
 * whole, so a record the schema refuses (an e-mail that is not one, an unknown role) makes the batch 400 with
 * details naming `items[i].field`: those records are failed with the API's detail messages and the batch is sent
 * again without them, which is the only way the API gives each bad record its own words. Any other refusal
 * (403, 503) ends the import and is the caller's to show.
 */
export async function importUsers(call: Call, users: readonly CsvUser[]): Promise<RowOutcome[]> {
  const outcomes: RowOutcome[] = [];
  for (let start = 0; start < users.length; start += BATCH) {
    let pending = users.slice(start, start + BATCH);
    while (pending.length > 0) {
      const batch = pending;
      const items = batch.map((u) => ({ name: u.name, email: u.email, role: u.role }) as BulkItem);
      try {
        const answer = await call((aula) => aula.users.bulk({ body: { items } }));
        for (const result of answer.results) {
          const user = batch[result.index];
          if (user === undefined) continue;
          const messages = result.error ? [result.error.message, ...detailsOf(result.error.details)] : [];
          outcomes.push({ user, status: result.status, messages });
        }
        pending = [];
      } catch (err) {
        const refused = refusedItems(err);
        if (refused.size === 0) throw err;
        for (const [index, messages] of refused) {
          const user = batch[index];
          if (user !== undefined) outcomes.push({ user, status: "failed", messages });
        }
        pending = batch.filter((_, index) => !refused.has(index));
      }
    }
  }
  return outcomes.sort((x, y) => x.user.row - y.user.row);
}

const detailsOf = (details: { field: string; message: string }[] | undefined) =>
  (details ?? []).map((d) => `${d.field}: ${d.message}`);

/** The items a 400 validation_failed names, each with the API's messages about it (its field named). */
function refusedItems(err: unknown): Map<number, string[]> {
  const refused = new Map<number, string[]>();
  if (!(err instanceof AulaError) || err.status !== 400) return refused;
  for (const detail of err.details) {
    const match = ITEM_FIELD.exec(detail.field ?? "");
    if (match === null) return new Map();
    const index = Number(match[1]);
    const text = match[2] ? `${match[2]}: ${detail.message}` : detail.message;
    refused.set(index, [...(refused.get(index) ?? []), text]);
  }
  return refused;
}
