/** A band of the institution's grading scale (`learning.gradingScale`): strictly descending, the last at 0. */
export interface GradeBandValue {
  letter: string;
  minPercent: number;
}

/**
 * The letter a percent earns on a scale: the first band whose `minPercent` it reaches. The settings refuse a scale
 * that is not strictly descending or does not end at 0, so every percent from 0 to 100 has exactly one letter;
 * the `null` answer is for a percent below 0, which no score produces.
 */
export function letterFor(scale: readonly GradeBandValue[], percent: number): string | null {
  for (const band of scale) if (percent >= band.minPercent) return band.letter;
  return null;
}
