import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { Pager } from "../pager.js";
import { ProblemView } from "../problem.js";
import { useCall, useSession } from "../session.js";

type Query = NonNullable<NonNullable<Parameters<Aula["courses"]["list"]>[0]>["query"]>;
type Status = NonNullable<Query["status"]>;
const STATUSES: readonly Status[] = ["draft", "published", "archived"];
const PER_PAGE = 20;

/**
 * Courses: GET /courses with its search and status filter, a page at a time, and a draft published by
 * PATCH /courses/:id `{status: "published"}`. Anyone signed in may read (a student sees the published courses
 * they are enrolled in); changing a course is staff's, so a student's session is offered no button.
 */
export default function CoursesPage() {
  const { language, t } = useI18n();
  const c = t.courses;
  const call = useCall();
  const { user } = useSession();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("");
  const [query, setQuery] = useState<Query>({ page: 1, perPage: PER_PAGE });
  const [version, setVersion] = useState(0);
  const [working, setWorking] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const courses = useLoad((aula) => aula.courses.list({ query }), version);
  const date = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(iso));
  const staff = user.role === "teacher" || user.role === "institution_admin";

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
      ...(status !== "" && { status: status as Status }),
    });
  };
  const publish = async (id: string, title: string) => {
    setWorking(id);
    setProblem(undefined);
    setNotice(undefined);
    try {
      await call((aula) => aula.courses.update({ path: { id }, body: { status: "published" } }));
      setNotice(format(c.published, { title }));
      setVersion((v) => v + 1);
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(undefined);
    }
  };
  const page = query.page ?? 1;

  return (
    <>
      <h1>{c.title}</h1>
      <p>{c.intro}</p>
      <form className="filters" aria-label={c.filters} onSubmit={filter}>
        <div className="row">
          <div>
            <label htmlFor="courses-search">{c.search}</label>
            <input
              id="courses-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="courses-status">{c.status}</label>
            <select id="courses-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">{c.any}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {c.statuses[s]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">{c.apply}</button>
        </div>
      </form>
      <p aria-live="polite">{notice}</p>
      <ProblemView problem={problem} />
      <section aria-label={c.title}>
        {courses.state === "loading" && <p>{t.loading}</p>}
        {courses.state === "failed" && <ProblemView problem={courses.problem} />}
        {courses.state === "ok" && courses.value.data.length === 0 && <p>{c.none}</p>}
        {courses.state === "ok" && courses.value.data.length > 0 && (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">{c.name}</th>
                  <th scope="col">{c.status}</th>
                  <th scope="col">{c.updated}</th>
                  {staff && <th scope="col">{c.actions}</th>}
                </tr>
              </thead>
              <tbody>
                {courses.value.data.map((course) => (
                  <tr key={course.id}>
                    <th scope="row">{course.title}</th>
                    <td>{c.statuses[course.status]}</td>
                    <td>{date(course.updatedAt)}</td>
                    {staff && (
                      <td>
                        {course.status === "draft" && (
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`${c.publish} ${course.title}`}
                            disabled={working !== undefined}
                            onClick={() => void publish(course.id, course.title)}
                          >
                            {working === course.id ? c.publishing : c.publish}
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={page}
              pagination={courses.value.pagination}
              words={c}
              onPage={(next) => show({ ...query, page: next })}
            />
          </>
        )}
      </section>
    </>
  );
}
