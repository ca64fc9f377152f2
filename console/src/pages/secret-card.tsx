import { useI18n } from "../i18n.js";

/** A new endpoint's or automation's signing secret, as the creation answer carries it, until closed. */
export function SecretCard({ text, secret, onClose }: { text: string; secret: string; onClose: () => void }) {
  const { t } = useI18n();
  const w = t.webhooks;
  return (
    <section className="card secret" aria-label={w.secretLabel}>
      <p>{text}</p>
      <label htmlFor="signing-secret">{w.secretLabel}</label>
      <div className="row">
        <input id="signing-secret" readOnly value={secret} />
        <button type="button" className="secondary" onClick={onClose}>
          {w.close}
        </button>
      </div>
    </section>
  );
}
