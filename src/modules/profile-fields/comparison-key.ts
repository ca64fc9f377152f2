/**
 * The text that profile values are compared by (uniqueness and `?profile.<key>=` filters), not the text shown:
 * values are stored as typed. Two values that read alike are one value: `Ｓ-1` (full-width), `S\u200b-1` (a
 * zero-width space inside) and `S-1` share a key, so no second user can hold a look-alike of a unique value.
 */

/**
 * Unicode's Default_Ignorable_Code_Point characters (Unicode 17): zero-width spaces and joiners, soft hyphen,
 * bidirectional controls, variation selectors, invisible operators, tags. Spelled out rather than as
 * `\p{Default_Ignorable_Code_Point}` because migration 0030 strips the very same list in SQL, and a runtime with
 * another Unicode version must not compute other keys than the stored ones.
 */
export const IGNORABLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each ignorable is removed on its own, combining or not.
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}]/gu;
const SPACES = / {2,}/g;
const END_SPACE = /^ | $/g;

/**
 * Lowercase, ignorables removed, NFKC (compatibility forms such as full-width letters fold to their plain
 * letter), spaces that this left doubled or at an end collapsed, lowercase again for letters NFKC produced. The
 * first lowercase is the key the values had before NFKC was applied: migration 0030 re-keys the stored rows from
 * it with the same steps, so old and new rows compare alike.
 */
export function comparisonKey(text: string): string {
  return text
    .toLowerCase()
    .replace(IGNORABLE, "")
    .normalize("NFKC")
    .replace(SPACES, " ")
    .replace(END_SPACE, "")
    .toLowerCase();
}
