import { randomUUID } from "node:crypto";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyServerOptions } from "fastify";
import { WEBHOOK_SECURITY_SCHEMES, webhookDocuments } from "./modules/events/webhook-docs.js";
import { registerModules } from "./modules/index.js";
import { registerAuthPipeline } from "./platform/auth/pipeline.js";
import type { RouteAccess } from "./platform/auth/types.js";
import type { AppContext } from "./platform/context.js";
import { isCorsPath, registerCors } from "./platform/cors/cors.js";
import { AppError } from "./platform/errors/app-error.js";
import {
  answerClientError,
  frameworkErrors,
  registerErrorHandling,
  renderError,
  setResponseBasics,
} from "./platform/errors/handler.js";
import { AccessLog } from "./platform/http/access-log.js";
import { registerHostGuard } from "./platform/http/host.js";
import { noBodyAsEmptyObject, registerJsonBodyParser } from "./platform/http/json-body.js";
import { withLogRedaction } from "./platform/http/log-redaction.js";
import { registerNulGuard } from "./platform/http/nul-guard.js";
import type { App } from "./platform/http/types.js";
import { schemaErrorFormatter, validatorCompiler } from "./platform/http/validation.js";
import { registerIdempotency } from "./platform/idempotency/idempotency.js";
import { registerDocs } from "./platform/openapi/docs.js";
import { registerOpenApi } from "./platform/openapi/openapi.js";
import { tenantNotFound } from "./platform/tenancy/resolver.js";

export interface BuildOptions {
  logger?: FastifyServerOptions["logger"];
  /** Runs before anything is registered, so hooks it adds reach every route (the tests check responses so). */
  instrument?: (app: App) => void;
}

/** Secrets never reach the logs: credentials live in these headers, and request logs carry no bodies. */
export const LOG_REDACT = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
];

/** A hop count becomes the function Fastify expects; other forms pass through. */
function fastifyTrustProxy(setting: boolean | number | string) {
  return typeof setting === "number" ? (_address: string, hop: number) => hop < setting : setting;
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? { level: ctx.config.logLevel }, LOG_REDACT),
    genReqId: () => randomUUID(),
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    logController: new AccessLog(),
    return503OnClosing: true,
    // Slow clients are cut off (slowloris): headers, whole request, idle keep-alive, silent socket.
    http: {
      headersTimeout: ctx.config.http.headersTimeoutMs,
      requestTimeout: ctx.config.http.requestTimeoutMs,
      connectionsCheckingInterval: ctx.config.http.checkIntervalMs,
      // The Host guard answers a missing Host in the envelope (Node's own 400 has no body).
      requireHostHeader: false,
    },
    requestTimeout: ctx.config.http.requestTimeoutMs,
    keepAliveTimeout: ctx.config.http.keepAliveTimeoutMs,
    connectionTimeout: ctx.config.http.connectionTimeoutMs,
    // A custom domain in `/domains/:host` may be 253 characters; longer parameters are answered 404.
    routerOptions: { maxParamLength: 256 },
    frameworkErrors,
    schemaErrorFormatter,
    clientErrorHandler: answerClientError,
  }).withTypeProvider() as unknown as App;
  options.instrument?.(app);
  await ctx.apiKeys.listen();
  await ctx.tenants.listen();

  app.setValidatorCompiler(validatorCompiler);
  // JSON is the only request body the API takes; anything else is 415 before it is read.
  app.removeContentTypeParser("text/plain");
  registerJsonBodyParser(app);
  noBodyAsEmptyObject(app, isCorsPath);

  // Every route must say who may call it; /api routes must do so explicitly.
  app.decorate("routeDeclarations", []);
  app.addHook("onRoute", (route) => {
    route.config ??= {};
    const config = route.config as { access?: RouteAccess };
    if (config.access === undefined) {
      if (route.url.startsWith("/api/"))
        throw new Error(`route ${route.method} ${route.url} declares no access`);
      config.access = { kind: "public" };
    }
    if (
      config.access.kind === "authenticated" &&
      config.access.auth.includes("key") &&
      !config.access.scope
    ) {
      throw new Error(`route ${route.method} ${route.url} accepts API keys but declares no scope`);
    }
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") {
        const openWhileInactive = (route.config as { openWhileInactive?: true }).openWhileInactive === true;
        app.routeDeclarations.push({ method, url: route.url, access: config.access, openWhileInactive });
      }
    }
  });

  app.addHook("onRequest", async (request, reply) => {
    setResponseBasics(request, reply);
  });
  registerHostGuard(app);

  await app.register(cookie);
  registerErrorHandling(app);
  await registerCors(app);
  registerAuthPipeline(app, ctx);
  registerIdempotency(app, ctx);
  registerNulGuard(app);
  await registerOpenApi(app, { webhooks: webhookDocuments(), securitySchemes: WEBHOOK_SECURITY_SCHEMES });

  // Unknown paths under /api/institution on an unknown host say so, like known paths do.
  app.setNotFoundHandler(async (request, reply) => {
    if (isCorsPath(request.url) && (await ctx.tenants.resolve(request.headers.host)) === null) {
      const refusal = tenantNotFound(request.headers.host, ctx.config.baseDomain);
      return reply.status(404).send(renderError(request, reply, refusal));
    }
    return reply.status(404).send(renderError(request, reply, new AppError("not_found")));
  });

  await registerModules(app, ctx);

  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  registerDocs(app, "/openapi.json");

  return app;
}
