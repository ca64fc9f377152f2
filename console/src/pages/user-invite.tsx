import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";

type Role = Parameters<Aula["users"]["create"]>[0]["body"]["role"];
export const ROLES: readonly Role[] = ["student", "teacher", "institution_admin"];

/** POST /users with `sendInvite` (the contract's way to invite): the person chooses a password from the e-mail. */
export function InviteUserForm({ onInvited }: { onInvited: () => void }) {
  const { t } = useI18n();
  const u = t.users;
  const call = useCall();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("student");
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setWorking(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      const user = await call((aula) => aula.users.create({ body: { name, email, role, sendInvite: true } }));
      setNotice(format(u.invited, { email: user.email }));
      setName("");
      setEmail("");
      onInvited();
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">{u.inviteTitle}</h2>
      <p className="hint">{u.inviteHint}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="invite-name">{u.name}</label>
        <input id="invite-name" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="invite-email">{u.email}</label>
        <input id="invite-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="invite-role">{u.role}</label>
        <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {u.roles[r]}
            </option>
          ))}
        </select>
        <button type="submit" disabled={working}>
          {working ? u.working : u.invite}
        </button>
      </form>
      <p aria-live="polite">{notice}</p>
      <ProblemView problem={problem} />
    </section>
  );
}
