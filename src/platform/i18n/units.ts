/**
 * A size in bytes as the megabytes a message prints with `{…, number, megabytes}`: 10^6 bytes, the unit CLDR (and
 * so each language's "MB", "Mo") names. Messages give the exact bytes beside it.
 */
export const megabytes = (bytes: number): number => bytes / 1_000_000;
