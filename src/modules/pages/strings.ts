import type { Locale } from "../../locales/index.js";

/** The words of the invitation and password-reset pages; `{institution}` is the institution's name. */
export interface PageStrings {
  invite: { title: string; intro: string; name: string; nameHint: string; submit: string; done: string };
  reset: { title: string; intro: string; submit: string; done: string };
  password: string;
  passwordHint: string;
  confirm: string;
  mismatch: string;
  missingToken: string;
  failed: string;
  working: string;
}

export const PAGE_STRINGS: Readonly<Record<Locale, PageStrings>> = {
  "pt-BR": {
    invite: {
      title: "Aceitar o convite",
      intro:
        "Você foi convidado(a) para participar de {institution}. Escolha uma senha para criar a sua conta.",
      name: "Seu nome",
      nameHint: "Em branco, fica o nome que está no convite.",
      submit: "Aceitar o convite",
      done: "Sua conta está pronta. Entre com o seu e-mail e esta senha.",
    },
    reset: {
      title: "Escolher uma nova senha",
      intro: "Defina uma nova senha para a sua conta em {institution}.",
      submit: "Salvar a nova senha",
      done: "Sua senha foi alterada e todas as sessões abertas foram encerradas. Entre com a nova senha.",
    },
    password: "Senha",
    passwordHint: "Pelo menos 8 caracteres.",
    confirm: "Repita a senha",
    mismatch: "As duas senhas são diferentes.",
    missingToken: "Este link está incompleto. Abra novamente o link do e-mail.",
    failed: "Não foi possível concluir. Tente novamente.",
    working: "Enviando…",
  },
  "en-US": {
    invite: {
      title: "Accept the invitation",
      intro: "You have been invited to join {institution}. Choose a password to create your account.",
      name: "Your name",
      nameHint: "Left blank, the name on the invitation is kept.",
      submit: "Accept the invitation",
      done: "Your account is ready. Sign in with your e-mail and this password.",
    },
    reset: {
      title: "Choose a new password",
      intro: "Set a new password for your account at {institution}.",
      submit: "Save the new password",
      done: "Your password has been changed and every open session has ended. Sign in with the new password.",
    },
    password: "Password",
    passwordHint: "At least 8 characters.",
    confirm: "Repeat the password",
    mismatch: "The two passwords differ.",
    missingToken: "This link is incomplete. Open the link in the e-mail again.",
    failed: "That did not work. Please try again.",
    working: "Sending…",
  },
  "es-ES": {
    invite: {
      title: "Aceptar la invitación",
      intro: "Te han invitado a unirte a {institution}. Elige una contraseña para crear tu cuenta.",
      name: "Tu nombre",
      nameHint: "Si lo dejas en blanco, se mantiene el nombre de la invitación.",
      submit: "Aceptar la invitación",
      done: "Tu cuenta está lista. Inicia sesión con tu correo electrónico y esta contraseña.",
    },
    reset: {
      title: "Elegir una nueva contraseña",
      intro: "Define una nueva contraseña para tu cuenta en {institution}.",
      submit: "Guardar la nueva contraseña",
      done: "Tu contraseña ha cambiado y se han cerrado todas las sesiones abiertas. Inicia sesión con la nueva.",
    },
    password: "Contraseña",
    passwordHint: "Al menos 8 caracteres.",
    confirm: "Repite la contraseña",
    mismatch: "Las dos contraseñas no coinciden.",
    missingToken: "Este enlace está incompleto. Vuelve a abrir el enlace del correo.",
    failed: "No se ha podido completar. Inténtalo de nuevo.",
    working: "Enviando…",
  },
  "fr-FR": {
    invite: {
      title: "Accepter l’invitation",
      intro:
        "Vous êtes invité(e) à rejoindre {institution}. Choisissez un mot de passe pour créer votre compte.",
      name: "Votre nom",
      nameHint: "Laissé vide, le nom de l’invitation est conservé.",
      submit: "Accepter l’invitation",
      done: "Votre compte est prêt. Connectez-vous avec votre e-mail et ce mot de passe.",
    },
    reset: {
      title: "Choisir un nouveau mot de passe",
      intro: "Définissez un nouveau mot de passe pour votre compte chez {institution}.",
      submit: "Enregistrer le nouveau mot de passe",
      done: "Votre mot de passe a été changé et toutes les sessions ouvertes ont été fermées. Connectez-vous avec le nouveau.",
    },
    password: "Mot de passe",
    passwordHint: "Au moins 8 caractères.",
    confirm: "Répétez le mot de passe",
    mismatch: "Les deux mots de passe sont différents.",
    missingToken: "Ce lien est incomplet. Ouvrez à nouveau le lien de l’e-mail.",
    failed: "Cela n’a pas fonctionné. Veuillez réessayer.",
    working: "Envoi…",
  },
};
