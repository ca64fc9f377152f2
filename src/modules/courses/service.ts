import type { Executor } from "../../db/client.js";
import { notFound } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import * as repo from "./repo.js";
import type { CourseRecord, CreateCourseInput, ListCoursesQueryType, UpdateCourseInput } from "./schemas.js";

export async function listCourses(db: Executor, tenantId: string, query: ListCoursesQueryType) {
  const window = pageWindow(query);
  const filter = { search: query.search, status: query.status };
  const [data, total] = await Promise.all([
    repo.listCourses(db, tenantId, filter, window),
    repo.countCourses(db, tenantId, filter),
  ]);
  return pageEnvelope(data, total, window);
}

export async function getCourse(db: Executor, tenantId: string, id: string): Promise<CourseRecord> {
  const course = await repo.findCourse(db, tenantId, id);
  if (course === undefined) throw notFound();
  return course;
}

export function createCourse(
  db: Executor,
  tenantId: string,
  input: CreateCourseInput,
): Promise<CourseRecord> {
  return repo.insertCourse(db, tenantId, input);
}

export async function updateCourse(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateCourseInput,
): Promise<CourseRecord> {
  const course = await repo.updateCourse(db, tenantId, id, input);
  if (course === undefined) throw notFound();
  return course;
}

export async function deleteCourse(db: Executor, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteCourse(db, tenantId, id))) throw notFound();
}
