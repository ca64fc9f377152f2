/**
 * Without SMTP_URL, mail goes to `.eml` files under the mail folder, sent by the worker's own loop (started here
 * as `npm start` starts it), on an embedded database of its own so the loop takes no other file's messages.
 */
import { mkdtempSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { json, makeKey } from "../../test-support/harness.js";
import { startWorker, type Worker } from "../../worker/runner.js";

const dir = mkdtempSync(join(tmpdir(), "aula-mail-"));
// Declared first, so it runs last: the folder goes once the worker and the harness have stopped.
afterAll(() => rm(dir, { recursive: true, force: true }));
const { h, tenants } = useApi({
  env: { DATABASE_URL: "", REDIS_URL: "", MAIL_DIR: dir, MAIL_FROM: "no-reply@eml.test" },
  tenants: ["Escola Eme"],
});
const [t] = tenants;
let worker: Worker;

beforeAll(() => {
  worker = startWorker(h.ctx, pino({ level: "silent" }), [], { deliveries: false, mail: { pollMs: 20 } });
});
afterAll(() => worker.stop());

async function waitForFile(folder: string): Promise<string> {
  for (let i = 0; i < 250; i++) {
    const files = await readdir(folder).catch(() => [] as string[]);
    if (files.length > 0) return join(folder, files[0] as string);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("no .eml file was written");
}

describe(".eml fallback", () => {
  it("writes the mail as an .eml file a person can open, whose reset link works", async () => {
    expect(h.config.mail.smtpUrl).toBeUndefined();
    const asked = await h.inject({
      method: "POST",
      url: "/api/auth/password-reset",
      headers: { host: t.host, ...json, "accept-language": "es-ES" },
      payload: { email: t.adminEmail },
    });
    expect(asked.statusCode).toBe(202);
    const file = await waitForFile(join(dir, t.id));
    expect(file).toMatch(/[0-9a-f-]{36}\.eml$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const mail = await simpleParser(await readFile(file));
    expect(mail.from?.value[0]?.address).toBe("no-reply@eml.test");
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe(t.adminEmail);
    expect(mail.subject).toBe("Restablece tu contraseña en Escola Eme");
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@eml\.test>$/);
    expect(mail.html).toContain("Restablecer la contraseña");
    const link = /http:\/\/\S+\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? "");
    expect(link).not.toBeNull();
    const confirmed = await h.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      headers: { host: t.host, ...json },
      payload: { token: link?.[1], password: "a brand new password" },
    });
    expect(confirmed.statusCode).toBe(204);
    const login = await h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: t.host, ...json },
      payload: { email: t.adminEmail, password: "a brand new password" },
    });
    expect(login.statusCode).toBe(200);
    // The message is recorded as sent, by the loop.
    const key = await makeKey(h, t, ["settings:read"]);
    const list = await h.inject({
      method: "GET",
      url: "/api/institution/email/messages",
      headers: { host: t.host, authorization: `Bearer ${key}` },
    });
    expect(list.json().data).toMatchObject([
      { status: "sent", templateKey: "password_reset", locale: "es-ES" },
    ]);
  });
});
