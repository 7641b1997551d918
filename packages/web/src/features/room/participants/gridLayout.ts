/**
 * Columns of the participants grid for each band of spec section 2 (1, 2–4, 5–6, 7–8, 9–13); past 13 the
 * grid keeps five columns and scrolls.
 */
export function gridColumns(count: number): number {
  if (count <= 1) return 1;
  if (count <= 4) return 2;
  if (count <= 6) return 3;
  if (count <= 8) return 4;
  return 5;
}

/** The band a count falls in, exposed as data-layout for styling and tests. */
export function gridBand(count: number): '0' | '1' | '2-4' | '5-6' | '7-8' | '9-13' {
  if (count <= 0) return '0';
  if (count === 1) return '1';
  if (count <= 4) return '2-4';
  if (count <= 6) return '5-6';
  if (count <= 8) return '7-8';
  return '9-13';
}
