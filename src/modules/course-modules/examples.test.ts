import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { TSchema } from "typebox";
import { describe, expect, it } from "vitest";
import * as courses from "../courses/schemas.js";
import * as lessons from "../lessons/schemas.js";
import * as modules from "./schemas.js";

// ajv-formats is published as CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The documented examples of the course, module and lesson schemas are what the reference shows: they must be valid. */
describe("course content examples", () => {
  it("validate against their own schemas", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const schemas = { ...courses, ...modules, ...lessons } as Record<string, unknown>;
    let checked = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      const examples = (schema as { examples?: unknown[] } | null)?.examples;
      if (typeof schema !== "object" || examples === undefined) continue;
      const validate = ajv.compile(schema as TSchema);
      for (const example of examples) {
        expect(validate(example), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(17);
  });
});
