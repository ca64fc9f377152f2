import type { FastifySchemaCompiler } from "fastify";
import type { TSchema } from "typebox";
import { validatorCompiler } from "../../platform/http/validation.js";

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * A route validator for a body that takes one of two shapes told apart by one property (one question, which has
 * `type`, or `{items}`). A plain `anyOf` would report the errors of both shapes, half of them about fields the
 * client never meant to send; this checks the body against the shape it chose and reports that shape's errors
 * only. The route's `body` schema stays the documented union; every other part validates as usual.
 */
export function bodyVariants(
  discriminator: string,
  withIt: TSchema,
  without: TSchema,
): FastifySchemaCompiler<unknown> {
  return (route) => {
    if (route.httpPart !== "body") return validatorCompiler(route);
    const first = validatorCompiler({ ...route, schema: withIt }) as Validate;
    const second = validatorCompiler({ ...route, schema: without }) as Validate;
    const validate: Validate = (data) => {
      const chosen =
        data !== null && typeof data === "object" && !Array.isArray(data) && discriminator in data
          ? first
          : second;
      const ok = chosen(data);
      validate.errors = chosen.errors;
      return ok;
    };
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
