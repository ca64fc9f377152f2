import { admins, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { acceptMergePatch, MERGE_PATCH_CONSUMES } from "../../platform/http/merge-patch.js";
import type { App } from "../../platform/http/types.js";
import { JsonSchemaDocument, SettingsPatchBody, SettingsResponse } from "./schemas.js";
import * as service from "./service.js";

const tags = ["institution"];
/** Staff read the settings (the grading scale, the time zone); students have no use for security policy. */
const read = staff("settings:read");
const write = admins("settings:write");

export function settingsRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/settings",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get the institution's settings",
        description:
          "Every namespace and key, defaults filled in for the keys never set. `general.locale` and " +
          "`general.timezone` are the profile's `defaultLocale` and `timezone`. Teachers' and administrators' " +
          "sessions, or a key with `settings:read`.",
        response: { 200: SettingsResponse },
      },
    },
    (request) => service.getSettings(db, tenantOf(request).id),
  );

  // The one route whose body is an RFC 7386 merge patch: it also takes the media type that RFC registers.
  app.register(async (scope: App) => {
    acceptMergePatch(scope);
    scope.patch(
      "/api/institution/settings",
      {
        config: { access: write },
        schema: {
          tags,
          summary: "Change the institution's settings",
          description:
            "A JSON merge patch (RFC 7386), sent as `application/merge-patch+json` or `application/json`: given " +
            "keys replace the current values, `null` resets a key (or a whole namespace) to its default, arrays " +
            "are replaced whole. Unknown namespaces or keys, wrong types, values out of range, a time zone that is " +
            "not IANA, or a grading scale that is not strictly descending down to 0 are 400 with details naming " +
            "each path. Answers the settings after the change; `settings_updated` names the keys that changed (a " +
            "patch that changes nothing emits nothing).",
          consumes: MERGE_PATCH_CONSUMES,
          body: SettingsPatchBody,
          response: { 200: SettingsResponse },
        },
      },
      (request) => service.updateSettings(db, tenantOf(request).id, principalOf(request), request.body),
    );
  });

  app.get(
    "/api/institution/settings/schema",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get the JSON Schema of the settings",
        description:
          "The JSON Schema (draft 2020-12) the settings are validated against, generated from the same " +
          "definition, with each key's type, constraints, description and default: enough to build a form.",
        response: { 200: JsonSchemaDocument },
      },
    },
    () => service.settingsJsonSchema(),
  );
}
