import { Type } from "typebox";
import { Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";

export const themeEvents = {
  theme_activated: defineEvent({
    schemaVersion: 1,
    description: "A theme became the institution's active theme.",
    payload: Type.Object({
      themeId: Uuid,
      name: Type.String(),
      version: Type.Integer({ minimum: 1 }),
      previousThemeId: Type.Union([Uuid, Type.Null()], { description: "The theme it replaced." }),
    }),
    sample: { themeId: SAMPLE_ID, name: "Institucional 2026", version: 3, previousThemeId: null },
  }),
};
