import type { Problem } from "./api.js";
import { useI18n } from "./i18n.js";

/** A failed call, told in the API's words (role=alert: read out as it appears). */
export function ProblemView({ problem }: { problem: Problem | undefined }) {
  const { t } = useI18n();
  if (problem === undefined) return null;
  return (
    <div className="problem" role="alert">
      <p>{problem.message}</p>
      {problem.details.length > 0 && (
        <ul>
          {problem.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {problem.requestId !== undefined && (
        <p className="request-id">
          {t.requestId}: <code>{problem.requestId}</code>
        </p>
      )}
    </div>
  );
}
