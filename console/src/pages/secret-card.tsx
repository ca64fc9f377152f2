import { useI18n } from "../i18n.js";

/**
 * A new endpoint's or automation's signing secret, as the creation answer carries it, until closed; and an inbound
 * automation's URL, which the API shows only in that answer.
 */
export function SecretCard(props: {
  text: string;
  secret: string;
  inboundUrl?: string;
  onClose: () => void;
}) {
  const { text, secret, inboundUrl, onClose } = props;
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
      {inboundUrl !== undefined && (
        <>
          <label htmlFor="inbound-url">{w.inboundUrl}</label>
          <input id="inbound-url" readOnly value={inboundUrl} />
        </>
      )}
    </section>
  );
}
