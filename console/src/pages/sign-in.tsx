import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { useI18n } from "../i18n.js";
import { ProblemView } from "../problem.js";
import type { SessionUser } from "../session.js";

/** POST /api/auth/login: the API sets the session cookies; the console keeps only who signed in. */
export function SignInPage({ aula, onSignedIn }: { aula: Aula; onSignedIn: (user: SessionUser) => void }) {
  const { t } = useI18n();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setWorking(true);
    setProblem(undefined);
    try {
      const answer = await aula.auth.login({ body: { email, password } });
      onSignedIn(answer.user);
    } catch (err) {
      setProblem(problemOf(err, t));
      setWorking(false);
    }
  };

  return (
    <section className="narrow">
      <h1>{t.signIn.title}</h1>
      <p>{t.signIn.intro}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="email">{t.signIn.email}</label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="password">{t.signIn.password}</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" disabled={working}>
          {working ? t.signIn.working : t.signIn.submit}
        </button>
      </form>
      <ProblemView problem={problem} />
    </section>
  );
}
