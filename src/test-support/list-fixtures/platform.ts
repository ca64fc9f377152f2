import { sql } from "drizzle-orm";
import { ListDomainsQuery } from "../../modules/institution/schemas.js";
import { ListMediaQuery } from "../../modules/media/schemas.js";
import { ListProfileFieldsQuery } from "../../modules/profile-fields/schemas.js";
import { ListThemesQuery } from "../../modules/themes/schemas.js";
import { ListVideoProvidersQuery } from "../../modules/video-providers/schemas.js";
import { AT, analyze, type ListFixture, rare, sortQueries } from "./types.js";

/**
 * The institution's files and settings: media, themes, video providers, domains, the payment log, profile fields,
 * e-mail templates, API keys.
 */

export const media: ListFixture = {
  name: "media",
  path: "/api/institution/media",
  scopes: ["media:read"],
  tables: ["media"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO media (tenant_id, kind, filename, content_type, size_bytes, status, storage, storage_key,
                         upload_expires_at, ready_at, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'image' ELSE 'document' END,
             CASE WHEN ${rare(size)} THEN 'quixotic-' || i || '.png' ELSE 'notes-' || i || '.pdf' END,
             CASE WHEN ${rare(size)} THEN 'image/png' ELSE 'application/pdf' END, 1000,
             CASE WHEN ${rare(size)} THEN 'failed' ELSE 'ready' END, 'local', ${t.id} || '/' || i,
             ${AT} + interval '1 day', ${AT}, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "media");
    return {};
  },
  queries: [
    ...sortQueries(ListMediaQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=notes", filtered: true },
    { name: "kind rare", query: "kind=image", rare: true, filtered: true, counter: true },
    { name: "kind common", query: "kind=document", filtered: true, counter: true },
    { name: "status rare", query: "status=failed", rare: true, filtered: true },
    { name: "status common", query: "status=ready", filtered: true },
  ],
};

export const themes: ListFixture = {
  name: "themes",
  path: "/api/institution/themes",
  scopes: ["settings:read"],
  tables: ["themes"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO themes (tenant_id, name, status, created_at, updated_at)
      SELECT ${t.id}::uuid, 'Theme ' || i, CASE WHEN ${rare(size)} THEN 'archived' ELSE 'draft' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "themes");
    return {};
  },
  queries: [
    ...sortQueries(ListThemesQuery),
    { name: "status rare", query: "status=archived", rare: true, filtered: true },
    { name: "status common", query: "status=draft", filtered: true },
  ],
};

export const videoProviders: ListFixture = {
  name: "video providers",
  path: "/api/institution/video-providers",
  scopes: ["settings:read"],
  tables: ["video_providers"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO video_providers (tenant_id, provider, purpose, name, settings, status, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'bigbluebutton' ELSE 'jitsi' END,
             CASE WHEN ${rare(size)} THEN 'on_demand' ELSE 'live' END, 'Provider ' || i, '{}'::jsonb, 'connected',
             ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "video_providers");
    return {};
  },
  queries: [
    ...sortQueries(ListVideoProvidersQuery),
    { name: "provider rare", query: "provider=bigbluebutton", rare: true, filtered: true },
    { name: "purpose common", query: "purpose=live", filtered: true },
    { name: "status common", query: "status=connected", filtered: true },
  ],
};

export const domains: ListFixture = {
  name: "domains",
  path: "/api/institution/domains",
  scopes: [],
  session: true,
  tables: ["tenant_domains"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO tenant_domains (tenant_id, host, verification_token, created_at)
      SELECT ${t.id}::uuid, 'learn' || i || '.' || ${t.slug} || '.example', md5(${t.id} || '-' || i), ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "tenant_domains");
    return {};
  },
  queries: sortQueries(ListDomainsQuery),
};

export const paymentEvents: ListFixture = {
  name: "payment log",
  path: "/api/institution/billing/events",
  scopes: [],
  session: true,
  tables: ["payment_events"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO payment_events (tenant_id, provider, event_id, type, outcome, event_created_at, payload,
                                  received_at)
      SELECT ${t.id}::uuid, 'stripe', 'evt_' || ${t.id} || '_' || i, 'invoice.payment_succeeded', 'applied', ${AT},
             '{}'::jsonb, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "payment_events");
    return {};
  },
  queries: [{ name: "default order", query: "" }],
};

export const profileFields: ListFixture = {
  name: "profile fields",
  path: "/api/institution/profile-fields",
  scopes: ["settings:read"],
  tables: ["profile_fields"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO profile_fields (tenant_id, key, label, type, position, status, created_at, updated_at)
      SELECT ${t.id}::uuid, 'field' || i, 'Field ' || i, CASE WHEN ${rare(size)} THEN 'number' ELSE 'text' END, i,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'active' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "profile_fields");
    return {};
  },
  queries: [
    ...sortQueries(ListProfileFieldsQuery),
    { name: "status rare", query: "status=archived", rare: true, filtered: true },
    { name: "status common", query: "status=active", filtered: true },
    { name: "type rare", query: "type=number", rare: true, filtered: true },
    { name: "type common", query: "type=text", filtered: true },
  ],
};

export const templates: ListFixture = {
  name: "email templates",
  path: "/api/institution/email/templates",
  scopes: ["settings:read"],
  tables: ["email_templates"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO email_templates (tenant_id, key, locale, subject, body_html, body_text, created_at, updated_at)
      SELECT ${t.id}::uuid, 'custom.notice' || i, 'en-US', 'Notice ' || i, '<p>Notice</p>', 'Notice', ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "email_templates");
    return {};
  },
  queries: [
    { name: "default order", query: "" },
    { name: "locale", query: "locale=en-US", filtered: true },
    { name: "customized", query: "customized=true", filtered: true },
  ],
};

export const apiKeys: ListFixture = {
  name: "api keys",
  path: "/api/institution/api-keys",
  scopes: ["settings:read"],
  tables: ["api_keys"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO api_keys (tenant_id, name, scopes, rate_tier, prefix, key_hash, status, created_by_user_id,
                            created_at)
      SELECT ${t.id}::uuid, 'Key ' || i, ARRAY['courses:read'], 'standard', 'aula_' || i,
             md5(${t.id} || '-key-' || i), 'active', ${t.adminUserId}::uuid, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "api_keys");
    return {};
  },
  queries: [{ name: "default order", query: "" }],
};

export const PLATFORM: ListFixture[] = [
  media,
  themes,
  videoProviders,
  domains,
  paymentEvents,
  profileFields,
  templates,
  apiKeys,
];
