import { Type } from "typebox";
import { assertSubscriptionLive } from "../../platform/auth/pipeline.js";
import type { AppContext } from "../../platform/context.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { tenantNotFound } from "../../platform/tenancy/resolver.js";
import { TokenQuery } from "./schemas.js";
import type { MediaDeps } from "./service.js";
import { storesFor } from "./storage/index.js";
import { contentDisposition, dispositionFor } from "./storage/store.js";
import { downloadable, receiveUpload } from "./transfer.js";

const tags = ["media"];

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within a file of `size` bytes; undefined for anything else. */
export function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (match === null || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return undefined;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start > end || start >= size) return undefined;
  return { start, end };
}

/**
 * The local store's byte routes: the upload target and the download URL. They take no credentials but the
 * HMAC token in their URL, so they are public routes that resolve the tenant from the Host themselves. The
 * upload body is a raw stream: this scope replaces the JSON parsers with one that leaves the request unread,
 * so the JSON body limit does not apply and the handler streams it to disk.
 */
export async function transferRoutes(app: App, ctx: AppContext, deps: MediaDeps): Promise<void> {
  const tenantFromHost = async (host: string | undefined) => {
    const tenant = await ctx.tenants.resolve(host);
    if (tenant === null) throw tenantNotFound(host, ctx.config.baseDomain);
    assertSubscriptionLive(tenant);
    return tenant;
  };

  await app.register(async (plain) => {
    const scope = plain as unknown as App;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    scope.put(
      "/api/media/:id/content",
      {
        config: { access: { kind: "public" }, errors: [402, 403, 404, 409, 413] },
        schema: {
          tags,
          summary: "Upload a file's bytes (local store)",
          description:
            "Step 2 of 3 on the local store: the URL answered by `POST /media/uploads`, with its `token`. The body " +
            "is the file itself, in any content type, streamed to disk (no JSON body limit); more bytes than the " +
            "declared `sizeBytes` is 413 and nothing is kept. An invalid or expired token is 403. Once the bytes " +
            "arrived the URL cannot replace them (409 `conflict`); of two bodies sent at once, the first to arrive " +
            "whole is kept and the other is 409, so completion checks the bytes that are served.",
          params: IdParams,
          querystring: TokenQuery,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const tenant = await tenantFromHost(request.headers.host);
        const length = request.headers["content-length"];
        await receiveUpload(
          deps,
          tenant.id,
          requireUuid(request.params.id),
          request.query.token,
          length === undefined ? undefined : Number(length),
          request.raw,
        );
        return reply.code(204).send(null);
      },
    );
  });

  app.get(
    "/api/media/:id/download",
    {
      config: { access: { kind: "public" }, errors: [402, 403, 404] },
      schema: {
        tags,
        summary: "Download a file (local store)",
        description:
          "The signed URL in a ready file's `url`. Streams the bytes with their content type, `Content-Length`, a " +
          "`Content-Disposition` with a safe file name and `X-Content-Type-Options: nosniff`; a single " +
          "`Range: bytes=…` is answered 206. An invalid or expired token is 403.",
        params: IdParams,
        querystring: TokenQuery,
        response: {
          200: {
            description: "The file's bytes.",
            content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
          },
          206: {
            description: "The requested byte range.",
            content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
          },
        },
      },
    },
    async (request, reply) => {
      const tenant = await tenantFromHost(request.headers.host);
      const row = await downloadable(deps, tenant.id, requireUuid(request.params.id), request.query.token);
      const store = storesFor(deps.config.media).local;
      const size = await store.size(row.storageKey);
      if (size === undefined) throw notFound();
      reply
        .header("content-type", row.contentType)
        .header("content-disposition", contentDisposition(row.filename, dispositionFor(row.contentType)))
        .header("x-content-type-options", "nosniff")
        .header("accept-ranges", "bytes")
        .header("cache-control", "private, no-store");
      const rangeHeader = request.headers.range;
      const range = rangeHeader === undefined ? undefined : parseRange(rangeHeader, size);
      if (range !== undefined) {
        reply
          .code(206)
          .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
          .header("content-length", String(range.end - range.start + 1));
        // A stream is sent as is; the binary response schema types the body as a string.
        return reply.send((await store.readRange(row.storageKey, range.start, range.end)) as never);
      }
      reply.header("content-length", String(size));
      return reply.send((await store.read(row.storageKey)) as never);
    },
  );
}
