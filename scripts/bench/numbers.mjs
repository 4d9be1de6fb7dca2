// Arithmetic the measurements share.

/** A figure to one decimal place, as the bench prints and stores them. */
export function round(n) {
  return Math.round(n * 10) / 10;
}
