import type { PlanConfig } from "../../config/plans.js";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { AppError } from "../../platform/errors/app-error.js";
import type { BulkStatus } from "../../platform/http/bulk.js";
import { canonicalIds } from "../../platform/http/schemas.js";
import * as classes from "../classes/service.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvents } from "../events/emit.js";
import { checkBulkProfiles, writeBulkProfiles } from "../profile-fields/service.js";
import { emailDomainPolicy } from "../settings/service.js";
import * as repo from "./repo.js";
import { adminRequired, mayAssignRole } from "./roles.js";
import type { BulkCreateUsersInput, UserRecord } from "./schemas.js";
import { type StudentSeats, studentLimitReached, studentSeats } from "./student-limit.js";

export interface BulkUserOutcome {
  index: number;
  status: BulkStatus;
  user?: UserRecord;
  reason?: "email_taken";
  error?: AppError;
}

interface Item {
  index: number;
  name: string;
  email: string;
  key: string;
  role: UserRecord["role"];
  groupIds: string[];
  profileFields: BulkCreateUsersInput["items"][number]["profileFields"];
}

const skipped = (index: number): BulkUserOutcome => ({ index, status: "skipped", reason: "email_taken" });
const failed = (index: number, error: AppError): BulkUserOutcome => ({ index, status: "failed", error });

/**
 * Creates up to 1,000 users in one transaction with a fixed number of statements, whatever the batch size: one
 * read of the e-mails already taken, one lock of the plan (when students are among the items), one lock of the
 * class groups named, one insert of the users and one of their memberships, one read of the records. Each item is
 * created whole or not at all; its outcome is decided in memory, in order, so the first students of the batch
 * take the seats the plan has left and the rest fail with `student_limit_reached`. A limit that cannot be
 * verified (503) fails the whole call. The events (`user_created`, `class_member_added`) are written in batches too.
 */
export async function bulkCreateUsers(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  input: BulkCreateUsersInput,
): Promise<BulkUserOutcome[]> {
  const outcomes: BulkUserOutcome[] = [];
  const candidates: Item[] = [];
  const seenEmails = new Set<string>();
  input.items.forEach((raw, index) => {
    const key = raw.email.toLowerCase();
    // A repeat of an earlier item's e-mail would collide with it: skipped like an e-mail already taken.
    if (seenEmails.has(key)) outcomes[index] = skipped(index);
    else if (!mayAssignRole(actor, raw.role)) outcomes[index] = failed(index, adminRequired());
    else {
      // Only an item that goes on claims its e-mail: a refused one must not make a later item a "repeat".
      seenEmails.add(key);
      const groupIds = canonicalIds(raw.classGroupIds);
      candidates.push({
        index,
        name: raw.name,
        email: raw.email,
        key,
        role: raw.role,
        groupIds,
        profileFields: raw.profileFields,
      });
    }
  });

  return db.transaction(async (tx) => {
    const domains = await emailDomainPolicy(tx, tenantId);
    const taken = await repo.takenEmails(
      tx,
      tenantId,
      candidates.map((c) => c.key),
    );
    const profiles = await checkBulkProfiles(
      tx,
      tenantId,
      candidates.filter((c) => !taken.has(c.key) && domains.admits(c.email)),
    );
    const fresh = candidates.filter((c) => {
      const profileError = profiles.errors.get(c.index);
      if (taken.has(c.key)) outcomes[c.index] = skipped(c.index);
      else if (!domains.admits(c.email)) {
        const detail = domains.refusal(`items[${c.index}].email`);
        outcomes[c.index] = failed(c.index, new AppError("validation_failed", { details: [detail] }));
      } else if (profileError !== undefined) outcomes[c.index] = failed(c.index, profileError);
      else return true;
      return false;
    });
    // The plan before the classes: every path takes the tenant's lock first, so none waits on the other in a cycle.
    const seats: StudentSeats | undefined = fresh.some((c) => c.role === "student")
      ? await studentSeats(tx, plans, tenantId)
      : undefined;
    const groups = await classes.lockClassGroups(
      tx,
      tenantId,
      fresh.flatMap((c) => c.groupIds),
    );
    const creating: Item[] = [];
    for (const c of fresh) {
      const missing = c.groupIds.filter((id) => !groups.has(id));
      if (missing.length > 0) {
        outcomes[c.index] = failed(
          c.index,
          classes.unknownClassGroups(c.groupIds, missing, `items[${c.index}].classGroupIds`),
        );
        continue;
      }
      if (seats !== undefined && c.role === "student" && seats.left === 0) {
        outcomes[c.index] = failed(c.index, studentLimitReached(seats));
        continue;
      }
      const full = classes.takeSeats(groups, c.groupIds);
      if (full !== undefined) {
        outcomes[c.index] = failed(c.index, classes.classFull(full));
        continue;
      }
      if (seats !== undefined && c.role === "student") seats.left--;
      creating.push(c);
    }

    const inserted = await repo.insertUsers(
      tx,
      tenantId,
      creating.map((c) => ({ name: c.name, email: c.email, role: c.role, status: "active" })),
    );
    const idByEmail = new Map(inserted.map((r) => [r.email.toLowerCase(), r.id]));
    const created = creating.filter((c) => {
      if (idByEmail.has(c.key)) return true;
      // Taken by a concurrent request between our read and our insert.
      outcomes[c.index] = skipped(c.index);
      return false;
    });

    await writeBulkProfiles(
      tx,
      tenantId,
      created.flatMap((c) =>
        (profiles.rows.get(c.index) ?? []).map((row) => ({ ...row, userId: idByEmail.get(c.key) as string })),
      ),
    );

    const memberships: classes.NewMembership[] = [];
    const by = eventActorOf(actor);
    for (const c of created) {
      const subject = subjectOf({
        id: idByEmail.get(c.key) as string,
        name: c.name,
        email: c.email,
        role: c.role,
      });
      const role = classes.memberRoleFor(c.role);
      for (const classGroupId of c.groupIds) memberships.push({ classGroupId, role, user: subject });
    }
    await classes.addMemberships(tx, tenantId, actor, memberships);

    // Read once the memberships exist: each user_created carries the user as GET /users/:id answers it.
    const records = new Map(
      (await repo.findUsers(tx, tenantId, [...idByEmail.values()])).map((u) => [u.id, u]),
    );
    const createdEvents = created.flatMap((c) => {
      const user = records.get(idByEmail.get(c.key) as string);
      if (user === undefined) return [];
      return [
        {
          type: "user_created" as const,
          data: { userId: user.id, role: user.role, status: user.status, user },
          actor: by,
          subject: subjectOf(user),
        },
      ];
    });
    // A chunk of events a statement, the loop given a turn between them.
    await inChunks(createdEvents, (chunk) => emitEvents(tx, tenantId, chunk).then(() => undefined));
    for (const c of created) {
      const user = records.get(idByEmail.get(c.key) as string);
      outcomes[c.index] = { index: c.index, status: "created", user };
    }
    return outcomes;
  });
}
