/**
 * A real LTI 1.3 tool for the round trip: ltijs, the Node tool library, in this process on 127.0.0.1. Its
 * Sequelize plugin keeps the tool's state (registered platforms, its own RSA keys, states, nonces, launches) in a
 * database of the tool's own: a scratch database on the PostgreSQL server when the tests run on one
 * (DATABASE_URL), otherwise a second in-memory PGlite (not the app's) served over a Unix socket by
 * src/db/pglite-socket.ts, as `npm run worker` reaches the embedded database.
 * ltijs validates our id_tokens itself (our JWKS fetched over HTTP, its state cookie, its nonce store) and calls
 * our token, AGS and NRPS endpoints with its own client assertions.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type IdToken, Provider, type ProviderInstance } from "ltijs";
import Database from "ltijs-sequelize";
import { inject } from "vitest";
import { createPglite } from "../db/pglite.js";
import { SOCKET_PORT, serveSocket, socketDirectory } from "../db/pglite-socket.js";
import { createScratchDatabase } from "./own-database.js";

async function toolDatabase(): Promise<{ plugin: Database; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (server !== undefined && server !== "") {
    const scratch = await createScratchDatabase(server, "ltijs");
    const url = new URL(scratch.url);
    const plugin = new Database(
      decodeURIComponent(url.pathname.slice(1)),
      decodeURIComponent(url.username),
      decodeURIComponent(url.password),
      { dialect: "postgres", host: url.hostname, port: Number(url.port || 5432), logging: false },
    );
    return { plugin, drop: scratch.drop };
  }
  const dir = await mkdtemp(join(tmpdir(), "ltijs-"));
  // A copy of the run's migrated image (Aula's tables, empty, beside the tool's): a new cluster's initdb costs
  // 5-20 s on a busy machine, loading the image a fraction of that.
  const image = inject("pgliteImage");
  const pglite = await createPglite(
    undefined,
    image === undefined ? undefined : new Blob([await readFile(image)]),
  );
  const socket = await serveSocket(pglite, dir);
  const plugin = new Database("postgres", "postgres", "", {
    dialect: "postgres",
    host: socketDirectory(dir),
    port: SOCKET_PORT,
    logging: false,
  });
  return {
    plugin,
    async drop() {
      await socket.close();
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface LtijsTool {
  lti: ProviderInstance;
  /** `http://127.0.0.1:<port>`: its login initiation is `/login`, its launch (redirect) URI `/`, its keys `/keys`. */
  origin: string;
  /** Every launch ltijs accepted, in order: the token its services take. */
  launches: IdToken[];
  close(): Promise<void>;
}

/** The content items the tool answers a deep-linking request with, given its own origin. */
export type ContentItems = (origin: string) => Record<string, unknown>[];

/** ltijs is one instance per process (its module exports it): one tool per test file. */
export async function startLtijsTool(deepLinkItems: ContentItems): Promise<LtijsTool> {
  const db = await toolDatabase();
  const lti = Provider;
  const launches: IdToken[] = [];
  // Listening first: the dynamic registration's settings name the tool's own origin.
  const server = createServer((req, res) => lti.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  lti.setup(
    "ltijs-test-encryption-key",
    { plugin: db.plugin },
    {
      // The browser here is the test's own: plain http, no cross-site frame, so Lax cookies are sent back.
      cookies: { secure: false, sameSite: "Lax" },
      devMode: false,
      tokenMaxAge: 60,
      dynReg: { url: origin, name: "ltijs tool", autoActivate: true, customParameters: { via: "dynamic" } },
    },
  );
  lti.onConnect((token, _req, res) => {
    launches.push(token);
    return res.send({ user: token.user, context: token.platformContext.context.id });
  });
  lti.onDeepLinking(async (token, _req, res) => {
    launches.push(token);
    const form = await lti.DeepLinking.createDeepLinkingForm(token, deepLinkItems(origin), {
      message: "Added",
    });
    return res.send(form);
  });
  await lti.deploy({ serverless: true, silent: true });
  return {
    lti,
    origin,
    launches,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await lti.close({ silent: true });
      await db.drop();
    },
  };
}

/**
 * The user's browser, as far as LTI needs one: it follows redirects, posts forms, and keeps each origin's cookies
 * (ltijs's signed state and session cookies, Aula's session), sending each only to the origin that set it.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  private jar(origin: string): Map<string, string> {
    let jar = this.jars.get(origin);
    if (jar === undefined) {
      jar = new Map();
      this.jars.set(origin, jar);
    }
    return jar;
  }

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; json?: unknown } = {},
  ): Promise<Response> {
    const { origin } = new URL(url);
    const headers: Record<string, string> = {};
    const cookies = [...this.jar(origin)].map(([k, v]) => `${k}=${v}`).join("; ");
    if (cookies !== "") headers.cookie = cookies;
    let body: string | undefined;
    if (init.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    const method = init.method ?? (body === undefined ? "GET" : "POST");
    const res = await fetch(url, { method, headers, body, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /expires=thu, 01 jan 1970/i.test(line)) this.jar(origin).delete(name);
      else this.jar(origin).set(name, value);
    }
    return res;
  }

  /** Opens `url` and follows redirects (GET) to the page that is not one; its response and address. */
  async open(url: string): Promise<{ res: Response; url: string }> {
    let current = url;
    for (let hop = 0; hop < 10; hop++) {
      const res = await this.request(current);
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || location === null) return { res, url: current };
      current = new URL(location, current).toString();
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Submits the page's auto-posting form (ours or ltijs's) as the browser's script would, following redirects. */
  async submit(html: string): Promise<{ res: Response; url: string }> {
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    if (form === null) throw new Error(`no form in ${html.slice(0, 200)}`);
    const fields: Record<string, string> = {};
    for (const m of (form[2] ?? "").matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
      fields[decode(m[1] ?? "")] = decode(m[2] ?? "");
    }
    const action = decode(form[1] ?? "");
    const res = await this.request(action, { form: fields });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location !== null) {
      return this.open(new URL(location, action).toString());
    }
    return { res, url: action };
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCharCode(Number.parseInt(n, 16)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_m, n: string) => ENTITIES[n] ?? "");
}
