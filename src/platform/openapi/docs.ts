import Fastify, { type FastifyInstance } from "fastify";
import type { App } from "../http/types.js";

const PREFIX = "/docs";
/** The routes `@scalar/fastify-api-reference` serves under its prefix when given a spec URL. */
const PATHS = [PREFIX, `${PREFIX}/`, `${PREFIX}/js/scalar.js`] as const;
/** What the reference's answers carry that matters to a browser (the rest is set per response by Node). */
const FORWARDED = ["content-type", "location"] as const;

export const REFERENCE_TITLE = "Aula API reference";

/**
 * The reference is the project's own and works offline: the page's title is ours, it loads no fonts from the
 * vendor's servers (the browser's own fonts), and it shows none of the vendor's cloud features (the "Ask AI"
 * agent, "Generate MCP", the developer toolbar with "Deploy") and sends no telemetry.
 */
export function referenceConfiguration(specUrl: string) {
  return {
    url: specUrl,
    pageTitle: REFERENCE_TITLE,
    title: REFERENCE_TITLE,
    withDefaultFonts: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never" as const,
    telemetry: false,
  };
}

/**
 * The API reference UI at `/docs`, loaded at its first request. `@scalar/fastify-api-reference` costs about
 * 33 MB of the server's memory once imported (its 4 MB browser bundle is a string in the module, plus its
 * parsers), which every process paid at start-up although few ever serve the page. Here the routes are declared
 * up front, and the first request to any of them imports the plugin into a small Fastify instance of its own,
 * kept for later requests, whose answers (status, type, redirect, body) are passed on unchanged.
 */
export function registerDocs(app: App, specUrl: string): void {
  let reference: Promise<FastifyInstance> | undefined;
  const load = async (): Promise<FastifyInstance> => {
    const { default: scalar } = await import("@scalar/fastify-api-reference");
    const docs = Fastify({ logger: false });
    await docs.register(scalar, { routePrefix: PREFIX, configuration: referenceConfiguration(specUrl) });
    await docs.ready();
    return docs;
  };
  for (const url of PATHS) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      reference ??= load().catch((err: unknown) => {
        // A failed load is retried at the next request rather than remembered.
        reference = undefined;
        throw err;
      });
      const answer = await (await reference).inject({ method: "GET", url: request.url });
      reply.code(answer.statusCode);
      for (const name of FORWARDED) {
        const value = answer.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      return reply.send(answer.rawPayload);
    });
  }
}
