/**
 * The e-mail tests' shared set-up: a real SMTP server (smtp-server), an app configured to send to it, two
 * institutions with unrestricted keys, and helpers to drain the outbox and read what arrived.
 */
import { randomBytes } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { beforeAll, expect } from "vitest";
import { createMailTransport, type MailTransport } from "../modules/email/transport.js";
import { type DrainResult, drainMail } from "../modules/email/worker.js";
import { bearer, type Harness, json, makeKey, makeTenant, startHarness, type TestTenant } from "./harness.js";
import { late, readThrough, useStarted } from "./late.js";
import { type SmtpSink, startSmtpSink } from "./smtp-sink.js";

export interface MailKit {
  smtp: SmtpSink;
  h: Harness;
  transport: MailTransport;
  a: TestTenant;
  b: TestTenant;
  keyA: string;
  keyB: string;
  bounceSecret: string;
  /** Sends what is due for one institution (default `a`), as the worker does. */
  drain(tenant?: TestTenant): Promise<DrainResult>;
  post(
    tenant: TestTenant,
    url: string,
    payload: unknown,
    headers?: Record<string, string>,
  ): ReturnType<Harness["inject"]>;
  get(tenant: TestTenant, url: string, key: string): ReturnType<Harness["inject"]>;
  /** The one mail the SMTP server accepted for this address. */
  mailTo(address: string): ParsedMail;
  /** The `<path>?token=…` link in a mail's text. */
  linkIn(text: string, path: string): URL;
  /** A fresh address of the institution's test domain. */
  email(tenant: TestTenant): string;
  close(): Promise<void>;
}

export async function startMailKit(env: Record<string, string> = {}): Promise<MailKit> {
  const bounceSecret = randomBytes(24).toString("hex");
  const smtp = await startSmtpSink();
  const h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Aula <no-reply@mail.test>",
    MAIL_RETRY_SCHEDULE: "60,600",
    EMAIL_BOUNCE_SECRET: bounceSecret,
    ...env,
  });
  const transport = createMailTransport(h.config.mail) as MailTransport;
  const a = await makeTenant(h, "Escola Alfa");
  const b = await makeTenant(h, "Beta University");
  const keyA = await makeKey(h, a, []);
  const keyB = await makeKey(h, b, []);
  return {
    smtp,
    h,
    transport,
    a,
    b,
    keyA,
    keyB,
    bounceSecret,
    drain: (tenant = a) => drainMail(h.ctx, transport, { tenantIds: [tenant.id] }),
    post: (tenant, url, payload, headers = {}) =>
      h.inject({
        method: "POST",
        url,
        headers: { host: tenant.host, ...json, ...headers },
        payload: payload as object,
      }),
    get: (tenant, url, key) =>
      h.inject({ method: "GET", url, headers: { host: tenant.host, ...bearer(key) } }),
    mailTo(address) {
      const found = smtp.mails.filter((m) => m.to !== undefined && JSON.stringify(m.to).includes(address));
      expect(found, `mail to ${address}`).toHaveLength(1);
      return found[0] as ParsedMail;
    },
    linkIn(text, path) {
      const m = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]+`).exec(text);
      expect(m, `a ${path} link`).not.toBeNull();
      return new URL((m as RegExpExecArray)[0]);
    },
    email: (tenant) => `p-${randomBytes(4).toString("hex")}@${tenant.slug}.test`,
    async close() {
      transport.close();
      await h.close();
      await smtp.close();
    },
  };
}

/**
 * A mail kit started in a `beforeAll` and closed in an `afterAll`, usable at a file's top level: `h`, `a`, `b` and
 * the helpers may be taken apart at once; `smtp`, `transport`, the keys and `bounceSecret` are read in hooks and
 * tests (they exist once the kit has started).
 */
export function useMailKit(env: Record<string, string> = {}): MailKit {
  const kit = useStarted(
    "the mail kit",
    () => startMailKit(env),
    (started) => started.close(),
  );
  // Filled in place once the kit has started.
  const a = {} as TestTenant;
  const b = {} as TestTenant;
  beforeAll(() => {
    Object.assign(a, kit.a);
    Object.assign(b, kit.b);
  });
  return readThrough(() => kit, ["smtp", "transport", "keyA", "keyB", "bounceSecret"], {
    h: late("the mail kit", () => kit.h),
    a,
    b,
    drain: (tenant?: TestTenant) => kit.drain(tenant),
    post: (tenant: TestTenant, url: string, payload: unknown, headers?: Record<string, string>) =>
      kit.post(tenant, url, payload, headers),
    get: (tenant: TestTenant, url: string, key: string) => kit.get(tenant, url, key),
    mailTo: (address: string) => kit.mailTo(address),
    linkIn: (text: string, path: string) => kit.linkIn(text, path),
    email: (tenant: TestTenant) => kit.email(tenant),
    close: () => kit.close(),
  });
}
