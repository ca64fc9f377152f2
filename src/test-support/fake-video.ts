import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { useStarted } from "./late.js";

/**
 * One local stand-in for three video providers, reached by the real outbound client (allow-listed through
 * OUTBOUND_ALLOW_CIDRS). It checks what the real services check:
 * - BigBlueButton (`/bigbluebutton/api/<call>`): the checksum, computed here on its own from the raw query as
 *   the API documents (sha1 or sha256 of callName + query without `checksum` + shared secret);
 * - Zoom: the Server-to-Server OAuth grant (Basic client id/secret, account id) at `/oauth/token`, then the
 *   bearer token on every `/v2/*` call, and the body of `POST /v2/users/me/meetings`;
 * - Jitsi: `GET /` answers 200.
 */
export interface FakeVideo {
  /** `http://<host>:<port>` */
  url: string;
  bbbSecret: string;
  bbbAlgorithm: "sha1" | "sha256";
  zoom: { accountId: string; clientId: string; clientSecret: string };
  /** Every request: method, path and raw query, and the parsed JSON body when there was one. */
  requests: { method: string; path: string; query: string; body?: unknown; authorization?: string }[];
  /** Meetings created through the Zoom API, by id. */
  meetings: Map<string, Record<string, unknown>>;
  /** What `GET /v2/past_meetings/:id/participants` reports, by meeting id. */
  participants: Map<string, Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const xml = (inner: string) => `<response>${inner}</response>`;

/** `bbbSecret`: a second server that shares another's secret (the institution moving its BigBlueButton). */
export async function startFakeVideo(
  host = "127.0.0.3",
  bbbSecret = randomBytes(16).toString("hex"),
): Promise<FakeVideo> {
  const fake: Omit<FakeVideo, "url" | "close"> = {
    bbbSecret,
    bbbAlgorithm: "sha1",
    zoom: {
      accountId: `acc_${randomBytes(4).toString("hex")}`,
      clientId: `cid_${randomBytes(4).toString("hex")}`,
      clientSecret: randomBytes(16).toString("hex"),
    },
    requests: [],
    meetings: new Map(),
    participants: new Map(),
  };
  const tokens = new Set<string>();
  let nextMeeting = 81234567890;

  const server = createServer(async (req, res) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const path = q === -1 ? raw : raw.slice(0, q);
    const query = q === -1 ? "" : raw.slice(q + 1);
    const text = await readBody(req);
    let body: unknown;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    fake.requests.push({
      method: req.method ?? "",
      path,
      query,
      body,
      authorization: req.headers.authorization,
    });
    const send = (status: number, payload: unknown, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
    };

    if (req.method === "GET" && path === "/") return send(200, "<html>jitsi</html>", "text/html");

    const bbb = /^\/bigbluebutton\/api\/([A-Za-z]+)$/.exec(path);
    if (bbb !== null && req.method === "GET") {
      const call = bbb[1] as string;
      const m = /(^|&)checksum=([0-9a-f]+)$/.exec(query);
      const unsigned = m === null ? query : query.slice(0, m.index);
      const expected = createHash(fake.bbbAlgorithm)
        .update(call + unsigned + fake.bbbSecret)
        .digest("hex");
      if (m === null || m[2] !== expected) {
        return send(
          200,
          xml("<returncode>FAILED</returncode><messageKey>checksumError</messageKey>"),
          "text/xml",
        );
      }
      return send(200, xml("<returncode>SUCCESS</returncode>"), "text/xml");
    }

    if (req.method === "POST" && path === "/oauth/token") {
      const params = new URLSearchParams(query);
      const basic = `Basic ${Buffer.from(`${fake.zoom.clientId}:${fake.zoom.clientSecret}`).toString("base64")}`;
      if (
        req.headers.authorization !== basic ||
        params.get("grant_type") !== "account_credentials" ||
        params.get("account_id") !== fake.zoom.accountId
      ) {
        return send(401, { reason: "Invalid client_id or client_secret", error: "invalid_client" });
      }
      const token = randomBytes(16).toString("hex");
      tokens.add(token);
      return send(200, {
        access_token: token,
        token_type: "bearer",
        expires_in: 3599,
        scope: "meeting:write",
      });
    }

    if (path.startsWith("/v2/")) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (bearer === undefined || !tokens.has(bearer))
        return send(401, { code: 124, message: "Invalid access token." });
      if (req.method === "GET" && path === "/v2/users/me")
        return send(200, { id: "me", email: "host@example.com" });
      if (req.method === "POST" && path === "/v2/users/me/meetings") {
        const b = body as Record<string, unknown> | undefined;
        if (
          typeof b?.topic !== "string" ||
          b.type !== 2 ||
          typeof b.start_time !== "string" ||
          typeof b.duration !== "number"
        ) {
          return send(400, { code: 300, message: "Invalid meeting." });
        }
        const id = nextMeeting++;
        const meeting = {
          ...b,
          id,
          join_url: `https://zoom.example/j/${id}?pwd=${randomBytes(6).toString("hex")}`,
        };
        fake.meetings.set(String(id), meeting);
        return send(201, meeting);
      }
      const past = /^\/v2\/past_meetings\/([^/]+)\/participants$/.exec(path);
      if (req.method === "GET" && past !== null) {
        const list = fake.participants.get(decodeURIComponent(past[1] as string));
        if (list === undefined) return send(404, { code: 3001, message: "Meeting does not exist." });
        return send(200, {
          page_size: 300,
          total_records: list.length,
          next_page_token: "",
          participants: list,
        });
      }
    }
    send(404, { message: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    get bbbAlgorithm() {
      return fake.bbbAlgorithm;
    },
    set bbbAlgorithm(value) {
      fake.bbbAlgorithm = value;
    },
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fake video server started before the file's tests and closed after them; `bbbSecret` is read when it starts
 * (another fake's secret, say).
 */
export function useFakeVideo(host?: string, bbbSecret?: () => string): FakeVideo {
  return useStarted(
    "the fake video server",
    () => startFakeVideo(host, bbbSecret?.()),
    (started) => started.close(),
  );
}

/**
 * A harness environment that sends Zoom's API and OAuth calls to `fake`, and lets the outbound client reach the
 * fakes' addresses (`allow`, the default host's by default).
 */
export function fakeVideoEnv(fake: FakeVideo, allow = "127.0.0.3/32"): Record<string, string> {
  return { OUTBOUND_ALLOW_CIDRS: allow, ZOOM_API_BASE: `${fake.url}/v2`, ZOOM_OAUTH_BASE: fake.url };
}
