/**
 * The built-in mail templates, one per key and contract locale, with an HTML and a text part. An institution may
 * override any of them per locale (PUT /email/templates/:key); these stay the fallback. Each key declares the
 * variables it is rendered with: an override may use those and no others (refused at PUT with details).
 */
import type { Locale } from "../../locales/index.js";

export const TEMPLATE_KEYS = [
  "invite",
  "invite_reminder",
  "enrollment",
  "password_reset",
  "certificate",
  "report_ready",
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

/** Variables every template gets: the recipient and the institution. */
export const COMMON_VARIABLES = ["name", "email", "institutionName"] as const;

export const TEMPLATE_VARIABLES: Readonly<Record<TemplateKey, readonly string[]>> = {
  invite: [...COMMON_VARIABLES, "acceptUrl", "expiresAt", "role"],
  invite_reminder: [...COMMON_VARIABLES, "acceptUrl", "expiresAt", "role"],
  enrollment: [...COMMON_VARIABLES, "courseTitle", "courseUrl"],
  password_reset: [...COMMON_VARIABLES, "resetUrl", "expiresInMinutes"],
  certificate: [...COMMON_VARIABLES, "courseTitle", "certificateUrl"],
  report_ready: [...COMMON_VARIABLES, "reportName", "reportUrl"],
};

export interface TemplateContent {
  subject: string;
  bodyHtml: string;
  bodyText: string;
}

/** A default is written as paragraphs and one action; the two parts are built from the same words. */
interface Draft {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  closing: string;
}

function build(d: Draft): TemplateContent {
  const html = [
    `<p>${d.greeting}</p>`,
    ...d.paragraphs.map((p) => `<p>${p}</p>`),
    `<p><a href="{{${d.action.url}}}">${d.action.label}</a></p>`,
    `<p>${d.closing}</p>`,
  ].join("\n");
  const text = [d.greeting, ...d.paragraphs, `${d.action.label}: {{${d.action.url}}}`, d.closing].join(
    "\n\n",
  );
  return { subject: d.subject, bodyHtml: html, bodyText: `${text}\n` };
}

const DRAFTS: Readonly<Record<TemplateKey, Readonly<Record<Locale, Draft>>>> = {
  invite: {
    "pt-BR": {
      subject: "Convite para {{institutionName}}",
      greeting: "Olá, {{name}}!",
      paragraphs: [
        "Você foi convidado(a) para participar de {{institutionName}}.",
        "O convite vale até {{expiresAt}}.",
      ],
      action: { label: "Aceitar o convite", url: "acceptUrl" },
      closing: "Equipe {{institutionName}}",
    },
    "en-US": {
      subject: "Your invitation to {{institutionName}}",
      greeting: "Hello {{name}},",
      paragraphs: [
        "You have been invited to join {{institutionName}}.",
        "The invitation is valid until {{expiresAt}}.",
      ],
      action: { label: "Accept the invitation", url: "acceptUrl" },
      closing: "The {{institutionName}} team",
    },
    "es-ES": {
      subject: "Invitación a {{institutionName}}",
      greeting: "Hola, {{name}}:",
      paragraphs: [
        "Te han invitado a unirte a {{institutionName}}.",
        "La invitación es válida hasta {{expiresAt}}.",
      ],
      action: { label: "Aceptar la invitación", url: "acceptUrl" },
      closing: "El equipo de {{institutionName}}",
    },
    "fr-FR": {
      subject: "Invitation à rejoindre {{institutionName}}",
      greeting: "Bonjour {{name}},",
      paragraphs: [
        "Vous êtes invité(e) à rejoindre {{institutionName}}.",
        "L’invitation est valable jusqu’au {{expiresAt}}.",
      ],
      action: { label: "Accepter l’invitation", url: "acceptUrl" },
      closing: "L’équipe {{institutionName}}",
    },
  },
  invite_reminder: {
    "pt-BR": {
      subject: "Lembrete: seu convite para {{institutionName}}",
      greeting: "Olá, {{name}}!",
      paragraphs: [
        "Seu convite para {{institutionName}} ainda está esperando por você.",
        "Ele vale até {{expiresAt}}.",
      ],
      action: { label: "Aceitar o convite", url: "acceptUrl" },
      closing: "Equipe {{institutionName}}",
    },
    "en-US": {
      subject: "Reminder: your invitation to {{institutionName}}",
      greeting: "Hello {{name}},",
      paragraphs: [
        "Your invitation to {{institutionName}} is still waiting for you.",
        "It is valid until {{expiresAt}}.",
      ],
      action: { label: "Accept the invitation", url: "acceptUrl" },
      closing: "The {{institutionName}} team",
    },
    "es-ES": {
      subject: "Recordatorio: tu invitación a {{institutionName}}",
      greeting: "Hola, {{name}}:",
      paragraphs: [
        "Tu invitación a {{institutionName}} sigue esperándote.",
        "Es válida hasta {{expiresAt}}.",
      ],
      action: { label: "Aceptar la invitación", url: "acceptUrl" },
      closing: "El equipo de {{institutionName}}",
    },
    "fr-FR": {
      subject: "Rappel : votre invitation à {{institutionName}}",
      greeting: "Bonjour {{name}},",
      paragraphs: [
        "Votre invitation à {{institutionName}} vous attend toujours.",
        "Elle est valable jusqu’au {{expiresAt}}.",
      ],
      action: { label: "Accepter l’invitation", url: "acceptUrl" },
      closing: "L’équipe {{institutionName}}",
    },
  },
  enrollment: {
    "pt-BR": {
      subject: "Matrícula confirmada: {{courseTitle}}",
      greeting: "Olá, {{name}}!",
      paragraphs: ["Você foi matriculado(a) no curso {{courseTitle}} em {{institutionName}}."],
      action: { label: "Abrir o curso", url: "courseUrl" },
      closing: "Bons estudos!",
    },
    "en-US": {
      subject: "You are enrolled: {{courseTitle}}",
      greeting: "Hello {{name}},",
      paragraphs: ["You have been enrolled in {{courseTitle}} at {{institutionName}}."],
      action: { label: "Open the course", url: "courseUrl" },
      closing: "Enjoy your learning!",
    },
    "es-ES": {
      subject: "Inscripción confirmada: {{courseTitle}}",
      greeting: "Hola, {{name}}:",
      paragraphs: ["Te has inscrito en el curso {{courseTitle}} de {{institutionName}}."],
      action: { label: "Abrir el curso", url: "courseUrl" },
      closing: "¡Buen estudio!",
    },
    "fr-FR": {
      subject: "Inscription confirmée : {{courseTitle}}",
      greeting: "Bonjour {{name}},",
      paragraphs: ["Vous êtes inscrit(e) au cours {{courseTitle}} de {{institutionName}}."],
      action: { label: "Ouvrir le cours", url: "courseUrl" },
      closing: "Bonne formation !",
    },
  },
  password_reset: {
    "pt-BR": {
      subject: "Redefinição de senha em {{institutionName}}",
      greeting: "Olá, {{name}}!",
      paragraphs: [
        "Recebemos um pedido para redefinir a sua senha. O link vale por {{expiresInMinutes}} minutos e pode ser usado uma vez.",
        "Se você não pediu, ignore esta mensagem: sua senha continua a mesma.",
      ],
      action: { label: "Redefinir a senha", url: "resetUrl" },
      closing: "Equipe {{institutionName}}",
    },
    "en-US": {
      subject: "Reset your password at {{institutionName}}",
      greeting: "Hello {{name}},",
      paragraphs: [
        "We received a request to reset your password. The link works once, for {{expiresInMinutes}} minutes.",
        "If you did not ask for it, ignore this message: your password stays the same.",
      ],
      action: { label: "Reset the password", url: "resetUrl" },
      closing: "The {{institutionName}} team",
    },
    "es-ES": {
      subject: "Restablece tu contraseña en {{institutionName}}",
      greeting: "Hola, {{name}}:",
      paragraphs: [
        "Hemos recibido una solicitud para restablecer tu contraseña. El enlace sirve una vez, durante {{expiresInMinutes}} minutos.",
        "Si no lo pediste, ignora este mensaje: tu contraseña no cambia.",
      ],
      action: { label: "Restablecer la contraseña", url: "resetUrl" },
      closing: "El equipo de {{institutionName}}",
    },
    "fr-FR": {
      subject: "Réinitialisez votre mot de passe sur {{institutionName}}",
      greeting: "Bonjour {{name}},",
      paragraphs: [
        "Nous avons reçu une demande de réinitialisation de votre mot de passe. Le lien sert une fois, pendant {{expiresInMinutes}} minutes.",
        "Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe ne change pas.",
      ],
      action: { label: "Réinitialiser le mot de passe", url: "resetUrl" },
      closing: "L’équipe {{institutionName}}",
    },
  },
  certificate: {
    "pt-BR": {
      subject: "Seu certificado: {{courseTitle}}",
      greeting: "Parabéns, {{name}}!",
      paragraphs: [
        "Você concluiu {{courseTitle}} e seu certificado está pronto.",
        "O certificado em PDF segue anexo.",
      ],
      action: { label: "Ver o certificado", url: "certificateUrl" },
      closing: "Equipe {{institutionName}}",
    },
    "en-US": {
      subject: "Your certificate: {{courseTitle}}",
      greeting: "Congratulations, {{name}}!",
      paragraphs: [
        "You completed {{courseTitle}} and your certificate is ready.",
        "The certificate is attached as a PDF.",
      ],
      action: { label: "View the certificate", url: "certificateUrl" },
      closing: "The {{institutionName}} team",
    },
    "es-ES": {
      subject: "Tu certificado: {{courseTitle}}",
      greeting: "¡Enhorabuena, {{name}}!",
      paragraphs: [
        "Has completado {{courseTitle}} y tu certificado está listo.",
        "Adjuntamos el certificado en PDF.",
      ],
      action: { label: "Ver el certificado", url: "certificateUrl" },
      closing: "El equipo de {{institutionName}}",
    },
    "fr-FR": {
      subject: "Votre certificat : {{courseTitle}}",
      greeting: "Félicitations, {{name}} !",
      paragraphs: [
        "Vous avez terminé {{courseTitle}} et votre certificat est prêt.",
        "Le certificat est joint en PDF.",
      ],
      action: { label: "Voir le certificat", url: "certificateUrl" },
      closing: "L’équipe {{institutionName}}",
    },
  },
  report_ready: {
    "pt-BR": {
      subject: "Relatório pronto: {{reportName}}",
      greeting: "Olá, {{name}}!",
      paragraphs: ["O relatório {{reportName}} de {{institutionName}} está pronto."],
      action: { label: "Baixar o relatório", url: "reportUrl" },
      closing: "Equipe {{institutionName}}",
    },
    "en-US": {
      subject: "Report ready: {{reportName}}",
      greeting: "Hello {{name}},",
      paragraphs: ["The report {{reportName}} of {{institutionName}} is ready."],
      action: { label: "Download the report", url: "reportUrl" },
      closing: "The {{institutionName}} team",
    },
    "es-ES": {
      subject: "Informe listo: {{reportName}}",
      greeting: "Hola, {{name}}:",
      paragraphs: ["El informe {{reportName}} de {{institutionName}} está listo."],
      action: { label: "Descargar el informe", url: "reportUrl" },
      closing: "El equipo de {{institutionName}}",
    },
    "fr-FR": {
      subject: "Rapport prêt : {{reportName}}",
      greeting: "Bonjour {{name}},",
      paragraphs: ["Le rapport {{reportName}} de {{institutionName}} est prêt."],
      action: { label: "Télécharger le rapport", url: "reportUrl" },
      closing: "L’équipe {{institutionName}}",
    },
  },
};

export function isTemplateKey(key: string): key is TemplateKey {
  return (TEMPLATE_KEYS as readonly string[]).includes(key);
}

export function defaultTemplate(key: TemplateKey, locale: Locale): TemplateContent {
  return build(DRAFTS[key][locale]);
}
