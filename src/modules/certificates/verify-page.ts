import type { Locale } from "../../locales/index.js";
import { formatDate } from "./layout.js";
import type { VerificationRecord } from "./schemas.js";

/** The words of the public verification page; `{institution}` is the institution's name. */
interface VerifyStrings {
  title: string;
  intro: string;
  student: string;
  course: string;
  path: string;
  issued: string;
  expires: string;
  never: string;
  code: string;
  status: string;
  states: Record<VerificationRecord["status"], string>;
  notFound: string;
  notFoundHint: string;
}

const STRINGS: Readonly<Record<Locale, VerifyStrings>> = {
  "pt-BR": {
    title: "Verificação de certificado",
    intro: "Certificado emitido por {institution}.",
    student: "Aluno(a)",
    course: "Curso",
    path: "Trilha",
    issued: "Emitido em",
    expires: "Válido até",
    never: "Sem data de validade",
    code: "Código",
    status: "Situação",
    states: { valid: "Válido", revoked: "Revogado", expired: "Expirado" },
    notFound: "Nenhum certificado tem este código.",
    notFoundHint: "Confira o código impresso no certificado e tente novamente.",
  },
  "en-US": {
    title: "Certificate verification",
    intro: "Certificate issued by {institution}.",
    student: "Student",
    course: "Course",
    path: "Learning path",
    issued: "Issued on",
    expires: "Valid until",
    never: "Does not expire",
    code: "Code",
    status: "Status",
    states: { valid: "Valid", revoked: "Revoked", expired: "Expired" },
    notFound: "No certificate has this code.",
    notFoundHint: "Check the code printed on the certificate and try again.",
  },
  "es-ES": {
    title: "Verificación de certificado",
    intro: "Certificado emitido por {institution}.",
    student: "Estudiante",
    course: "Curso",
    path: "Ruta de aprendizaje",
    issued: "Emitido el",
    expires: "Válido hasta",
    never: "Sin fecha de caducidad",
    code: "Código",
    status: "Estado",
    states: { valid: "Válido", revoked: "Revocado", expired: "Caducado" },
    notFound: "Ningún certificado tiene este código.",
    notFoundHint: "Comprueba el código impreso en el certificado e inténtalo de nuevo.",
  },
  "fr-FR": {
    title: "Vérification de certificat",
    intro: "Certificat délivré par {institution}.",
    student: "Étudiant(e)",
    course: "Cours",
    path: "Parcours",
    issued: "Délivré le",
    expires: "Valable jusqu’au",
    never: "Sans date d’expiration",
    code: "Code",
    status: "Statut",
    states: { valid: "Valide", revoked: "Révoqué", expired: "Expiré" },
    notFound: "Aucun certificat ne porte ce code.",
    notFoundHint: "Vérifiez le code imprimé sur le certificat et réessayez.",
  },
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(locale: Locale, title: string, institution: string, main: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(institution)}</title>
<link rel="stylesheet" href="/pages/form.css">
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

/** The page for a code: what the certificate shows, in `locale`; or, for `null`, that no certificate has it. */
export function renderVerifyPage(
  locale: Locale,
  institution: string,
  found: VerificationRecord | null,
): string {
  const s = STRINGS[locale];
  if (found === null) {
    return page(
      locale,
      s.title,
      institution,
      `<h1>${escapeHtml(s.title)}</h1>\n<p id="status" role="alert">${escapeHtml(s.notFound)}</p>\n` +
        `<p class="hint">${escapeHtml(s.notFoundHint)}</p>`,
    );
  }
  const intro = escapeHtml(s.intro).replace("{institution}", `<strong>${escapeHtml(institution)}</strong>`);
  const row = (label: string, value: string, id: string) =>
    `<dt>${escapeHtml(label)}</dt><dd id="${id}">${escapeHtml(value)}</dd>`;
  const state = s.states[found.status];
  const rows = [
    row(s.status, state, "certificate-status"),
    row(s.student, found.studentName, "certificate-student"),
    found.learningPathTitle === null
      ? row(s.course, found.courseTitle ?? "", "certificate-course")
      : row(s.path, found.learningPathTitle, "certificate-path"),
    row(s.issued, formatDate(found.issuedAt, locale), "certificate-issued"),
    row(
      s.expires,
      found.expiresAt === null ? s.never : formatDate(found.expiresAt, locale),
      "certificate-expires",
    ),
    row(s.code, found.serial, "certificate-code"),
  ].join("\n");
  const banner = found.status === "valid" ? "done" : "status";
  return page(
    locale,
    s.title,
    institution,
    `<h1>${escapeHtml(s.title)}</h1>\n<p>${intro}</p>\n<p id="${banner}" data-status="${found.status}">` +
      `${escapeHtml(state)}</p>\n<dl>\n${rows}\n</dl>`,
  );
}
