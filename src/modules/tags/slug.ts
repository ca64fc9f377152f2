const MAX_SLUG = 64;

/**
 * `Turma Ágil 2026` → `turma-agil-2026`: accents dropped, anything else that is not a letter or digit becomes
 * one hyphen. A name with nothing left (`!!!`, `日本語`) gets `tag`; a suffix keeps slugs unique (see repo).
 */
export function slugBase(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG - 6)
    .replace(/-+$/, "");
  return slug === "" ? "tag" : slug;
}

/** The first of `base`, `base-2`, `base-3`, … that is not taken. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
