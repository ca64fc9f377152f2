import { lazy, type ReactElement, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { clientFor } from "./api.js";
import {
  I18nContext,
  initialLanguage,
  LANGUAGES,
  type Language,
  messagesOf,
  rememberLanguage,
} from "./i18n.js";
import { ApiKeysPage } from "./pages/api-keys.js";
import { DashboardPage } from "./pages/dashboard.js";
import { SignInPage } from "./pages/sign-in.js";
import { pathOf, type Route, useRoute } from "./router.js";
import { resumeSession, SessionContext, type SessionUser } from "./session.js";
import { applyTheme } from "./theme.js";

// Pages beyond the dashboard and the keys load when first opened: a first visit downloads only what it shows.
const UsersPage = lazy(() => import("./pages/users.js"));
const CoursesPage = lazy(() => import("./pages/courses.js"));
const WebhooksPage = lazy(() => import("./pages/webhooks.js"));
const AutomationsPage = lazy(() => import("./pages/automations.js"));
const SettingsPage = lazy(() => import("./pages/settings.js"));
const BillingPage = lazy(() => import("./pages/billing.js"));

const PAGES: Readonly<Record<Route, ReactElement>> = {
  dashboard: <DashboardPage />,
  keys: <ApiKeysPage />,
  users: <UsersPage />,
  courses: <CoursesPage />,
  webhooks: <WebhooksPage />,
  automations: <AutomationsPage />,
  settings: <SettingsPage />,
  billing: <BillingPage />,
};

function LanguageSwitch({ language, onChange }: { language: Language; onChange: (l: Language) => void }) {
  const t = messagesOf(language);
  return (
    <label className="language">
      {t.language}{" "}
      <select value={language} onChange={(e) => onChange(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l.tag} value={l.tag} lang={l.tag}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The console: the sign-in page until a session exists, then the signed-in pages around their navigation. */
export function App() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const aula = useMemo(() => clientFor(language), [language]);
  const t = messagesOf(language);
  // undefined while the session is being looked up; null when nobody is signed in.
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const [route, go] = useRoute();

  useEffect(() => {
    rememberLanguage(language);
  }, [language]);
  useEffect(() => {
    const titles: Record<Route, string> = {
      dashboard: t.dashboard.title,
      keys: t.keys.title,
      users: t.users.title,
      courses: t.courses.title,
      webhooks: t.webhooks.title,
      automations: t.automations.title,
      settings: t.settings.title,
      billing: t.billing.title,
    };
    document.title = `${user === null ? t.signIn.title : titles[route]} · Aula`;
  }, [user, route, t]);
  useEffect(() => {
    void applyTheme(clientFor("pt-BR"));
    void resumeSession(clientFor("pt-BR")).then(setUser);
  }, []);

  const signedOut = useCallback(() => setUser(null), []);
  const signOut = async () => {
    try {
      await aula.auth.logout();
    } finally {
      setUser(null);
    }
  };
  const link = (to: Route, label: string) => (
    <a
      href={pathOf(to)}
      aria-current={route === to ? "page" : undefined}
      onClick={(e) => {
        e.preventDefault();
        go(to);
      }}
    >
      {label}
    </a>
  );

  return (
    <I18nContext.Provider value={{ language, t }}>
      <header className="bar">
        <span className="brand">Aula · {t.appName}</span>
        {user && (
          <nav aria-label={t.nav.label}>
            {link("dashboard", t.nav.dashboard)}
            {link("keys", t.nav.apiKeys)}
            {link("users", t.nav.users)}
            {link("courses", t.nav.courses)}
            {link("webhooks", t.nav.webhooks)}
            {link("automations", t.nav.automations)}
            {link("settings", t.nav.settings)}
            {link("billing", t.nav.billing)}
          </nav>
        )}
        <LanguageSwitch language={language} onChange={setLanguage} />
        {user && (
          <span className="who">
            {user.name}{" "}
            <button type="button" className="secondary" onClick={() => void signOut()}>
              {t.signOut}
            </button>
          </span>
        )}
      </header>
      <main id="main">
        {user === undefined ? (
          <p aria-live="polite">{t.loading}</p>
        ) : user === null ? (
          <SignInPage aula={aula} onSignedIn={setUser} />
        ) : (
          <SessionContext.Provider value={{ aula, user, signedOut }}>
            <Suspense fallback={<p aria-live="polite">{t.loading}</p>}>{PAGES[route]}</Suspense>
          </SessionContext.Provider>
        )}
      </main>
    </I18nContext.Provider>
  );
}
