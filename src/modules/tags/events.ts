import { Type } from "typebox";
import { Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";

const UserTag = Type.Object({ userId: Uuid, tagId: Uuid, tagName: Type.String() });

export const tagEvents = {
  user_tag_added: defineEvent({
    schemaVersion: 1,
    description: "A tag was attached to a user.",
    payload: UserTag,
    sample: { userId: SAMPLE_ID, tagId: SAMPLE_ID, tagName: "Turma A" },
  }),
  user_tag_removed: defineEvent({
    schemaVersion: 1,
    description: "A tag was removed from a user.",
    payload: UserTag,
    sample: { userId: SAMPLE_ID, tagId: SAMPLE_ID, tagName: "Turma A" },
  }),
};
