import type { Locale } from "../../locales/index.js";
import { PAGE_STRINGS } from "./strings.js";

export type PageKind = "invite" | "reset";

/** The public API route each page posts to. */
export const ENDPOINTS: Readonly<Record<PageKind, string>> = {
  invite: "/api/invites/accept",
  reset: "/api/auth/password-reset/confirm",
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A labelled input, its hint tied to it for screen readers. */
function field(name: string, label: string, type: string, extra: string, hint?: string): string {
  const described = hint === undefined ? "" : ` aria-describedby="${name}-hint"`;
  return (
    `<label for="${name}">${escapeHtml(label)}</label>` +
    `<input id="${name}" name="${name}" type="${type}"${extra}${described}>` +
    (hint === undefined ? "" : `<p class="hint" id="${name}-hint">${escapeHtml(hint)}</p>`)
  );
}

/**
 * The page for an invitation link or a password-reset link, in `locale`: a form that the page's script posts to
 * the public API with the link's token. Nothing of the token is written into the page.
 */
export function renderPage(kind: PageKind, locale: Locale, institution: string): string {
  const s = PAGE_STRINGS[locale];
  const words = kind === "invite" ? s.invite : s.reset;
  const intro = escapeHtml(words.intro).replace(
    "{institution}",
    `<strong>${escapeHtml(institution)}</strong>`,
  );
  const password = ' autocomplete="new-password" required minlength="8" maxlength="1024"';
  const fields = [
    kind === "invite"
      ? field("name", s.invite.name, "text", ' autocomplete="name" maxlength="200"', s.invite.nameHint)
      : "",
    field("password", s.password, "password", password, s.passwordHint),
    field("confirm", s.confirm, "password", password),
  ].join("");
  const data = [
    `data-endpoint="${ENDPOINTS[kind]}"`,
    `data-mismatch="${escapeHtml(s.mismatch)}"`,
    `data-missing="${escapeHtml(s.missingToken)}"`,
    `data-failed="${escapeHtml(s.failed)}"`,
    `data-working="${escapeHtml(s.working)}"`,
  ].join(" ");
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(words.title)} · ${escapeHtml(institution)}</title>
<link rel="stylesheet" href="/pages/form.css">
<script src="/pages/form.js" defer></script>
</head>
<body>
<main>
<h1>${escapeHtml(words.title)}</h1>
<p>${intro}</p>
<form ${data} novalidate>
${fields}
<button type="submit">${escapeHtml(words.submit)}</button>
</form>
<p id="status" role="alert"></p>
<p id="done" tabindex="-1" hidden>${escapeHtml(words.done)}</p>
</main>
</body>
</html>
`;
}
