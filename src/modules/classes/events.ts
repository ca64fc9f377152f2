import { Type } from "typebox";
import { Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";

export const classEvents = {
  class_member_added: defineEvent({
    schemaVersion: 1,
    description: "A user joined a class group.",
    payload: Type.Object({
      classGroupId: Uuid,
      userId: Uuid,
      role: Type.String({ description: "The member's role in the class group." }),
    }),
    sample: { classGroupId: SAMPLE_ID, userId: SAMPLE_ID, role: "student" },
  }),
  class_member_removed: defineEvent({
    schemaVersion: 1,
    description: "A user left a class group.",
    payload: Type.Object({ classGroupId: Uuid, userId: Uuid }),
    sample: { classGroupId: SAMPLE_ID, userId: SAMPLE_ID },
  }),
};
