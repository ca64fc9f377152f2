import { Type } from "typebox";
import { defineEvent } from "../events/define.js";

export const settingsEvents = {
  settings_updated: defineEvent({
    schemaVersion: 1,
    description: "The institution's settings changed (audit): the keys that changed and the new version.",
    payload: Type.Object({
      changedKeys: Type.Array(Type.String(), { description: "`namespace.key` paths." }),
      version: Type.Integer({ minimum: 1, description: "The settings' new version." }),
    }),
    sample: { changedKeys: ["security.sessionTimeoutMinutes", "inactivity.userInactiveDays"], version: 3 },
  }),
};
