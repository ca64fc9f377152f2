import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { Pager } from "../pager.js";
import { ProblemView } from "../problem.js";
import { useSession } from "../session.js";
import { ImportUsersForm } from "./user-import.js";
import { InviteUserForm, ROLES } from "./user-invite.js";

type Query = NonNullable<NonNullable<Parameters<Aula["users"]["list"]>[0]>["query"]>;
type Status = NonNullable<Query["status"]>;
const STATUSES: readonly Status[] = ["active", "invited", "suspended"];
const PER_PAGE = 20;

/**
 * Users: GET /users with its search, role and status filters, a page at a time. Staff may read it; inviting
 * and importing are administrators' (the API's `users:write` for a session), so only an administrator's
 * session is offered those forms (a teacher's would only be refused).
 */
export default function UsersPage() {
  const { language, t } = useI18n();
  const u = t.users;
  const { user } = useSession();
  const [search, setSearch] = useState("");
  const [role, setRole] = useState("");
  const [status, setStatus] = useState("");
  const [query, setQuery] = useState<Query>({ page: 1, perPage: PER_PAGE });
  const [version, setVersion] = useState(0);
  const users = useLoad((aula) => aula.users.list({ query }), version);
  const date = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(iso));

  const show = (next: Query) => {
    setQuery(next);
    setVersion((v) => v + 1);
  };
  const filter = (event: FormEvent) => {
    event.preventDefault();
    show({
      page: 1,
      perPage: PER_PAGE,
      ...(search.trim() !== "" && { search: search.trim() }),
      ...(role !== "" && { role: role as NonNullable<Query["role"]> }),
      ...(status !== "" && { status: status as Status }),
    });
  };
  const page = query.page ?? 1;
  const reload = () => setVersion((v) => v + 1);

  return (
    <>
      <h1>{u.title}</h1>
      <p>{u.intro}</p>
      <form className="filters" aria-label={u.filters} onSubmit={filter}>
        <div className="row">
          <div>
            <label htmlFor="users-search">{u.search}</label>
            <input
              id="users-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="users-role">{u.role}</label>
            <select id="users-role" value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="">{u.any}</option>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {u.roles[r]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="users-status">{u.status}</label>
            <select id="users-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">{u.any}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {u.statuses[s]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">{u.apply}</button>
        </div>
      </form>
      <section aria-label={u.title}>
        {users.state === "loading" && <p>{t.loading}</p>}
        {users.state === "failed" && <ProblemView problem={users.problem} />}
        {users.state === "ok" && users.value.data.length === 0 && <p>{u.none}</p>}
        {users.state === "ok" && users.value.data.length > 0 && (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{u.name}</th>
                  <th scope="col">{u.email}</th>
                  <th scope="col">{u.role}</th>
                  <th scope="col">{u.status}</th>
                  <th scope="col">{u.created}</th>
                </tr>
              </thead>
              <tbody>
                {users.value.data.map((one) => (
                  <tr key={one.id}>
                    <th scope="row">{one.name}</th>
                    <td>{one.email}</td>
                    <td>{u.roles[one.role]}</td>
                    <td>{u.statuses[one.status]}</td>
                    <td>{date(one.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={page}
              pagination={users.value.pagination}
              words={u}
              onPage={(next) => show({ ...query, page: next })}
            />
          </>
        )}
      </section>
      {users.state === "ok" && user.role === "institution_admin" && (
        <>
          <InviteUserForm onInvited={reload} />
          <ImportUsersForm onImported={reload} />
        </>
      )}
    </>
  );
}
