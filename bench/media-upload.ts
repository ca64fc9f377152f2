/**
 * (m) A large upload through the local-disk path, as `npm start` serves it: the compiled server (dist-bench/src/
 * server.js) in a child process on the embedded database, a tenant made with the CLI, then the three steps over
 * real HTTP: `POST /media/uploads`, a `PUT` of `sizeMiB` MiB generated on the fly (an MP4 header, then one reused
 * zero-filled MiB; nothing the size of the file is ever in memory on either side), `POST /media/:id/complete`
 * with the SHA-256 checked. Reports MB/s of the PUT and the server child's peak RSS (VmHWM of /proc/<pid>/status,
 * and VmRSS sampled every 100 ms), which must stay under 200 MB.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";

const MIB = 1024 * 1024;

export interface MediaUploadResult {
  sizeBytes: number;
  putSeconds: number;
  megabytesPerSecond: number;
  completeSeconds: number;
  status: string;
  peakRssMB: number;
  maxSampledRssMB: number;
  rssBeforeMB: number;
  /** The process's peak RSS before the upload began (start-up: migrations, first requests). */
  peakBeforeMB: number;
  /** The highest RSS sampled during the upload minus the RSS at rest before it: what the upload itself cost. */
  growthMB: number;
  underLimit: boolean;
}

/** The file: an `ftyp` box then an `mdat` box covering the rest, in 1 MiB chunks of one reused buffer. */
function* chunks(size: number): Generator<Buffer> {
  const head = Buffer.alloc(32);
  head.writeUInt32BE(24, 0);
  head.write("ftypmp42", 4, "ascii");
  head.write("mp42isom", 16, "ascii");
  head.writeUInt32BE(Math.min(size - 24, 0xffffffff), 24);
  head.write("mdat", 28, "ascii");
  yield head;
  const zeros = Buffer.alloc(MIB);
  let left = size - head.length;
  while (left > 0) {
    const n = Math.min(left, MIB);
    yield n === MIB ? zeros : zeros.subarray(0, n);
    left -= n;
  }
}

function status(pid: number, field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match === null ? 0 : Number(match[1]) / 1024;
}

function request(
  port: number,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | Readable,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path, headers: { host, ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    if (body instanceof Readable) body.pipe(req);
    else req.end(body);
  });
}

async function waitForListen(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start within 60 s")), 60_000);
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("Aula API on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

export async function measureMediaUpload(
  root: string,
  sizeMiB: number,
  databaseUrl: string | undefined,
  port = 3917,
): Promise<MediaUploadResult> {
  const size = sizeMiB * MIB;
  const dataDir = await mkdtemp(join(tmpdir(), "aula-bench-media-"));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    // PostgreSQL when given (the server process then holds only its own memory), else the embedded PGlite, whose
    // WebAssembly heap alone is about 430 MB of the process's RSS.
    DATABASE_URL: databaseUrl ?? "",
    SESSION_SECRET: "bench-media-session-secret-0123456789abcdef",
    SECRETS_ENCRYPTION_KEY: "ab".repeat(32),
    REDIS_URL: "",
    PORT: String(port),
    WORKER: "off",
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    PLAN_STORAGE_LIMITS: JSON.stringify({ free: size * 2 }),
    MEDIA_MAX_UPLOAD_BYTES: String(size * 2),
    // The whole body must arrive within the request timeout (Node's server-wide rule): room for a slow disk.
    HTTP_REQUEST_TIMEOUT_MS: "600000",
  };
  const server = join(root, "dist-bench", "src");
  const slug = `bench-media-${Date.now().toString(36)}`;
  const created = JSON.parse(
    execFileSync(
      process.execPath,
      [
        join(server, "cli.js"),
        "tenant",
        "create",
        "--slug",
        slug,
        "--name",
        "Bench media",
        "--admin-email",
        `admin@${slug}.test`,
        "--admin-password",
        "bench-media-password",
        "--json",
      ],
      { env, encoding: "utf8" },
    ).trim(),
  ) as { slug: string };
  const host = `${created.slug}.localhost:${port}`;
  const child = spawn(process.execPath, [join(server, "server.js")], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let samples: NodeJS.Timeout | undefined;
  try {
    await waitForListen(child);
    const pid = child.pid as number;
    const login = await request(
      port,
      host,
      "POST",
      "/api/auth/login",
      { "content-type": "application/json" },
      Buffer.from(JSON.stringify({ email: `admin@${slug}.test`, password: "bench-media-password" })),
    );
    const cookie = [login.headers["set-cookie"] ?? []]
      .flat()
      .map((c) => c.split(";")[0])
      .join("; ");
    const hash = createHash("sha256");
    for (const chunk of chunks(size)) hash.update(chunk);
    const started = await request(
      port,
      host,
      "POST",
      "/api/institution/media/uploads",
      { "content-type": "application/json", cookie },
      Buffer.from(
        JSON.stringify({
          filename: "bench.mp4",
          contentType: "video/mp4",
          sizeBytes: size,
          checksumSha256: hash.digest("hex"),
        }),
      ),
    );
    if (started.status !== 201) throw new Error(`upload start: ${started.status} ${started.body}`);
    const { media, upload } = JSON.parse(started.body) as {
      media: { id: string };
      upload: { url: string; headers: Record<string, string> };
    };
    const rssBefore = status(pid, "VmRSS");
    const peakBefore = status(pid, "VmHWM");
    let maxRss = rssBefore;
    samples = setInterval(() => {
      maxRss = Math.max(maxRss, status(pid, "VmRSS"));
    }, 100);
    const url = new URL(upload.url);
    const t0 = performance.now();
    const sent = await request(
      port,
      host,
      "PUT",
      `${url.pathname}${url.search}`,
      { ...upload.headers, "content-length": String(size) },
      Readable.from(chunks(size)),
    );
    const putSeconds = (performance.now() - t0) / 1000;
    if (sent.status !== 204) throw new Error(`upload: ${sent.status} ${sent.body}`);
    const t1 = performance.now();
    const done = await request(port, host, "POST", `/api/institution/media/${media.id}/complete`, { cookie });
    const completeSeconds = (performance.now() - t1) / 1000;
    clearInterval(samples);
    const peak = status(pid, "VmHWM");
    return {
      sizeBytes: size,
      putSeconds,
      megabytesPerSecond: size / MIB / putSeconds,
      completeSeconds,
      status: (JSON.parse(done.body) as { status: string }).status,
      peakRssMB: peak,
      maxSampledRssMB: maxRss,
      rssBeforeMB: rssBefore,
      peakBeforeMB: peakBefore,
      growthMB: maxRss - rssBefore,
      underLimit: peak < 200,
    };
  } finally {
    if (samples !== undefined) clearInterval(samples);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
