/**
 * What the worker sends for a claimed message: its sealed body (written when the change was made), or, for mail
 * composed at send time, its template rendered now; and its attachments, each rendered now by its kind's source.
 * Links point at the institution's own host: its first verified custom domain, else its subdomain of BASE_DOMAIN
 * (over https when cookies are secure, that is outside development and tests, where the port is added).
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import { tenantDomains, tenants, users } from "../../db/schema/index.js";
import { DEFAULT_LOCALE } from "../../locales/index.js";
import type { Tenant } from "../../platform/auth/types.js";
import { type Keyring, openSecret } from "../../platform/crypto/secret-box.js";
import { ATTACHMENT_SOURCES } from "./attachment-kinds.js";
import type { AttachmentRef, MailFile } from "./attachments.js";
import { asLocale, resolveTemplate, sealContext } from "./outbox.js";
import { render } from "./render.js";
import { SendError } from "./transport.js";

export interface ComposeInput {
  tenant_id: string;
  id: string;
  to_email: string;
  to_user_id: string | null;
  template_key: string | null;
  locale: string;
  body_sealed: string | null;
  attachments: AttachmentRef[] | null;
}

export interface Composed {
  /** Present when composed now (the row's subject is then replaced by it). */
  subject?: string;
  html: string;
  text: string;
  attachments: MailFile[];
}

interface Deps {
  db: Executor;
  config: Config;
  keyring: Keyring;
}

async function tenantOf(db: Executor, tenantId: string): Promise<Tenant | undefined> {
  const [row] = await db
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, plan: tenants.plan })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row === undefined ? undefined : { ...row, billingStatus: null };
}

/** `http(s)://host` of the institution, for mail sent with no request to take the host from. */
export async function institutionOrigin(db: Executor, config: Config, tenant: Tenant): Promise<string> {
  const [domain] = await db
    .select({ host: tenantDomains.host })
    .from(tenantDomains)
    .where(and(eq(tenantDomains.tenantId, tenant.id), isNotNull(tenantDomains.verifiedAt)))
    .orderBy(asc(tenantDomains.verifiedAt), asc(tenantDomains.host))
    .limit(1);
  if (config.auth.secureCookies) return `https://${domain?.host ?? `${tenant.slug}.${config.baseDomain}`}`;
  return `http://${domain?.host ?? `${tenant.slug}.${config.baseDomain}`}:${config.port}`;
}

/**
 * The message's parts and files, or undefined when an attachment's subject was withdrawn (the message is then
 * suppressed). Throws SendError: permanent for an unknown kind or template or a vanished institution,
 * temporary for a body that cannot be opened or a file that could not be rendered now (a busy renderer).
 */
export async function composeMessage(deps: Deps, m: ComposeInput): Promise<Composed | undefined> {
  const refs = m.attachments ?? [];
  let tenant: Tenant | undefined;
  let origin = "";
  if (refs.length > 0 || m.body_sealed === null) {
    tenant = await tenantOf(deps.db, m.tenant_id);
    if (tenant === undefined) throw new SendError("the institution is gone", true);
    origin = await institutionOrigin(deps.db, deps.config, tenant);
  }
  const files: MailFile[] = [];
  let variables: Record<string, string> = {};
  for (const ref of refs) {
    const source = ATTACHMENT_SOURCES[ref.kind];
    if (source === undefined) throw new SendError(`unknown attachment kind ${ref.kind}`, true);
    let rendered: Awaited<ReturnType<typeof source>>;
    try {
      rendered = await source({ db: deps.db, config: deps.config, tenant: tenant as Tenant, origin }, ref.id);
    } catch (err) {
      throw new SendError(
        `the ${ref.kind} attachment could not be rendered: ${(err as Error)?.message}`,
        false,
      );
    }
    if (rendered === undefined) return undefined;
    files.push(rendered.file);
    variables = { ...variables, ...rendered.variables };
  }
  if (m.body_sealed !== null) {
    let body: { html: string; text: string };
    try {
      body = JSON.parse(openSecret(m.body_sealed, deps.keyring, sealContext(m.tenant_id, m.id)));
    } catch {
      // A key dropped from the keyring: retried on the schedule, in case an operator restores it.
      throw new SendError("the message cannot be opened (secrets key)", false);
    }
    return { html: body.html, text: body.text, attachments: files };
  }
  const locale = asLocale(m.locale) ?? DEFAULT_LOCALE;
  const template =
    m.template_key === null ? undefined : await resolveTemplate(deps.db, m.tenant_id, m.template_key, locale);
  if (template === undefined) throw new SendError(`no template ${m.template_key}`, true);
  const [user] =
    m.to_user_id === null
      ? []
      : await deps.db
          .select({ name: users.name })
          .from(users)
          .where(and(eq(users.tenantId, m.tenant_id), eq(users.id, m.to_user_id)));
  const content = render(template, {
    ...variables,
    name: user?.name ?? m.to_email,
    email: m.to_email,
    institutionName: (tenant as Tenant).name,
  });
  return { subject: content.subject, html: content.bodyHtml, text: content.bodyText, attachments: files };
}
