import { describe, expect, it } from "vitest";
import {
  detailsByField,
  patchOf,
  sectionsOf,
  sentValueOf,
  textOf,
} from "../../../console/src/pages/settings-fields.js";
import { DEFAULT_SETTINGS } from "../settings/schemas.js";
import { settingsJsonSchema } from "../settings/service.js";

/** The console's settings form, read from the document GET /settings/schema answers. */
describe("the console's settings fields", () => {
  const sections = sectionsOf(settingsJsonSchema());
  const fields = sections.flatMap((s) => s.fields);
  const field = (path: string) => {
    const found = fields.find((f) => f.path === path);
    if (found === undefined) throw new Error(`no field ${path}`);
    return found;
  };
  const current = DEFAULT_SETTINGS as unknown as Record<string, Record<string, unknown>>;
  const textsOf = (settings: Record<string, Record<string, unknown>>) =>
    Object.fromEntries(fields.map((f) => [f.path, textOf(f, settings[f.namespace]?.[f.key])]));

  it("makes a field of every key of every namespace, by its type", () => {
    expect(sections.map((s) => s.namespace)).toEqual(Object.keys(DEFAULT_SETTINGS));
    for (const [ns, keys] of Object.entries(DEFAULT_SETTINGS))
      expect(sections.find((s) => s.namespace === ns)?.fields.map((f) => f.key)).toEqual(Object.keys(keys));
    expect(field("general.locale").kind).toEqual({
      type: "enum",
      options: ["pt-BR", "en-US", "es-ES", "fr-FR"],
    });
    expect(field("inactivity.userInactiveDays")).toMatchObject({
      kind: { type: "integer" },
      nullable: false,
    });
    expect(field("security.sessionTimeoutMinutes")).toMatchObject({
      kind: { type: "integer" },
      nullable: true,
    });
    expect(field("notifications.replyTo")).toMatchObject({
      kind: { type: "text", format: "email" },
      nullable: true,
    });
    expect(field("security.allowedEmailDomains").kind).toEqual({ type: "lines" });
    expect(field("learning.gradingScale").kind).toEqual({ type: "json" });
  });

  it("sends only what changed, null for an emptied nullable key, and what does not convert as typed", () => {
    const texts = textsOf(current);
    expect(patchOf(sections, current, texts)).toEqual({});
    texts["security.allowedEmailDomains"] = " escola.edu.br \n\nfaculdade.br";
    texts["inactivity.userInactiveDays"] = "45";
    texts["notifications.replyTo"] = "";
    texts["learning.gradingScale"] = "[{";
    expect(patchOf(sections, current, texts)).toEqual({
      security: { allowedEmailDomains: ["escola.edu.br", "faculdade.br"] },
      inactivity: { userInactiveDays: 45 },
      learning: { gradingScale: "[{" },
    });
    expect(sentValueOf(field("security.sessionTimeoutMinutes"), "")).toBeNull();
    expect(sentValueOf(field("inactivity.userInactiveDays"), "4x")).toBe("4x");
    expect(sentValueOf(field("inactivity.userInactiveDays"), "")).toBe("");
  });

  it("puts each of the API's details under the key it names, and keeps the others apart", () => {
    const { byField, rest } = detailsByField(fields, [
      { field: "learning.gradingScale[1].letter", message: "too long" },
      { field: "learning.gradingScale", message: "not descending" },
      { field: "security.sessionTimeoutMinutes", message: "at least 15" },
      { field: "security.sessionTimeoutMinutesX", message: "unknown key" },
      { message: "whole body" },
    ]);
    expect(Object.fromEntries(byField)).toEqual({
      "learning.gradingScale": ["too long", "not descending"],
      "security.sessionTimeoutMinutes": ["at least 15"],
    });
    expect(rest).toEqual(["security.sessionTimeoutMinutesX: unknown key", "whole body"]);
  });
});
