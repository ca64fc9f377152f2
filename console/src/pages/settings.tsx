import { useI18n } from "../i18n.js";
import { SettingsForm } from "./settings-form.js";
import { ThemesPanel } from "./themes.js";

/** The institution's settings and its themes: one page, as both are the institution's configuration. */
export default function SettingsPage() {
  const { t } = useI18n();
  return (
    <>
      <h1>{t.settings.title}</h1>
      <p>{t.settings.intro}</p>
      <div className="card">
        <SettingsForm />
      </div>
      <ThemesPanel />
    </>
  );
}
