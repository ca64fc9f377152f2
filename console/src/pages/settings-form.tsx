import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { AulaError } from "../../../sdk/src/errors.js";
import { type Problem, problemOf } from "../api.js";
import { useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall, useSession } from "../session.js";
import { detailsByField, type Field, patchOf, type Section, sectionsOf, textOf } from "./settings-fields.js";

type Settings = Record<string, Record<string, unknown>>;

/** One key's input, by its kind, with the API's complaints about it right under it. */
function FieldInput(props: {
  field: Field;
  text: string;
  errors: string[] | undefined;
  onChange: (text: string) => void;
}) {
  const { field, text, errors, onChange } = props;
  const { t } = useI18n();
  const s = t.settings;
  const id = `setting-${field.namespace}-${field.key}`;
  const label = (s.keys as Record<string, string>)[field.key] ?? field.key;
  const invalid = errors !== undefined && errors.length > 0;
  const common = {
    id,
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? `${id}-errors` : undefined,
  };
  let input: ReactNode;
  if (field.kind.type === "enum") {
    input = (
      <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {field.nullable && <option value="">—</option>}
        {field.kind.options.map((o) => (
          <option key={o} value={o}>
            {(s.values as Record<string, string>)[o] ?? o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind.type === "lines" || field.kind.type === "json") {
    const rows = field.kind.type === "json" ? 8 : 3;
    input = <textarea {...common} rows={rows} value={text} onChange={(e) => onChange(e.target.value)} />;
  } else {
    const type = field.kind.type === "text" ? (field.kind.format === "email" ? "email" : "text") : "text";
    const mode = field.kind.type === "integer" ? "numeric" : undefined;
    input = (
      <input
        {...common}
        type={type}
        inputMode={mode}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {input}
      {invalid && (
        <ul className="field-errors" id={`${id}-errors`}>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * GET /settings and /settings/schema: a form of every namespace and key; an administrator saves what changed as a
 * merge patch (PATCH /settings). A teacher may read the settings but not change them, so sees the form disabled.
 */
export function SettingsForm() {
  const { t } = useI18n();
  const s = t.settings;
  const call = useCall();
  const { user } = useSession();
  const admin = user.role === "institution_admin";
  const [version, setVersion] = useState(0);
  const loaded = useLoad(async (aula) => {
    const [schema, settings] = await Promise.all([aula.settings.schema.get(), aula.settings.get()]);
    return { sections: sectionsOf(schema), settings: settings as unknown as Settings };
  }, version);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Map<string, string[]>>(new Map());
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const [working, setWorking] = useState(false);

  // The inputs start from the settings read (again after each save).
  useEffect(() => {
    if (loaded.state !== "ok") return;
    const next: Record<string, string> = {};
    for (const { namespace, fields } of loaded.value.sections)
      for (const f of fields) next[f.path] = textOf(f, loaded.value.settings[namespace]?.[f.key]);
    setTexts(next);
  }, [loaded]);

  if (loaded.state === "loading") return <p>{t.loading}</p>;
  if (loaded.state === "failed") return <ProblemView problem={loaded.problem} />;
  const { sections, settings } = loaded.value;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setNotice(undefined);
    setErrors(new Map());
    const patch = patchOf(sections, settings, texts);
    if (Object.keys(patch).length === 0) {
      setNotice(s.unchanged);
      return;
    }
    setWorking(true);
    try {
      await call((aula) => aula.settings.update({ body: patch as never }));
      setNotice(s.saved);
      setVersion((v) => v + 1);
    } catch (err) {
      const told = problemOf(err, t);
      if (err instanceof AulaError) {
        const all = sections.flatMap((section: Section) => section.fields);
        const { byField, rest } = detailsByField(all, err.details);
        setErrors(byField);
        told.details = rest;
      }
      setProblem(told);
    } finally {
      setWorking(false);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} aria-labelledby="settings-form-title" noValidate>
      <h2 id="settings-form-title">{s.formTitle}</h2>
      {!admin && <p className="hint">{s.readOnly}</p>}
      <ProblemView problem={problem} />
      {sections.map(({ namespace, fields }) => (
        <fieldset key={namespace} disabled={!admin || working}>
          <legend>{(s.namespaces as Record<string, string>)[namespace] ?? namespace}</legend>
          {fields.map((field) => (
            <FieldInput
              key={field.path}
              field={field}
              text={texts[field.path] ?? ""}
              errors={errors.get(field.path)}
              onChange={(text) => setTexts((prev) => ({ ...prev, [field.path]: text }))}
            />
          ))}
        </fieldset>
      ))}
      {admin && (
        <button type="submit" disabled={working}>
          {working ? s.saving : s.save}
        </button>
      )}
      <p aria-live="polite">{notice}</p>
    </form>
  );
}
