/** The marker label of spec section 2 (Map view): first, second and last letters of the pseudo, upper case. */
export function markerLabel(pseudo: string): string {
  const letters = [...pseudo.trim()];
  if (letters.length === 0) return '?';
  if (letters.length <= 3) return letters.join('').toUpperCase();
  return `${letters[0]}${letters[1]}${letters[letters.length - 1]}`.toUpperCase();
}
