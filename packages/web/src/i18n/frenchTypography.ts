/**
 * French typography that a catalogue's text cannot know in advance (issue 70), applied to every French text once its
 * values are in:
 * - elision before a value that begins with a vowel or a mute h: "Statut de {{name}}" reads "Statut d’Inès", not
 *   "Statut de Inès" (also "que" → "qu’");
 * - guillemets held to their words by non-breaking spaces, so that a "»" never starts a line alone.
 * Only the values decide the elision: a catalogue's own words are already written right.
 */

/** Words whose h is aspirated: no elision before them ("de Hangar B"). */
const ASPIRATED_H =
  /^h(a(che|ie|is|lle?|lte|meau|nche|ngar|rdi|ricot|sard|ut)|ér(isson|on|os)|ibou|ockey|olland|onte|orde|ors|ouss|uit|urle|utte)/i;
const VOWEL = /^[aeiouyàâäéèêëîïôöùûüœæ]/i;

export function elides(value: string): boolean {
  const word = value.trimStart();
  if (VOWEL.test(word)) return true;
  return /^h[aeiouyàâäéèêëîïôöùûüœæ]/i.test(word) && !ASPIRATED_H.test(word);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function frenchTypography(text: string, values: Record<string, unknown> = {}): string {
  let result = text;
  for (const value of Object.values(values)) {
    if (typeof value !== 'string' || value === '' || !elides(value)) continue;
    // "de Inès" → "d’Inès", "De Inès" → "D’Inès"; only where the value follows the word.
    result = result.replace(
      new RegExp(`(^|[\\s(«\u00a0])(d|D|qu|Qu)(e) (${escaped(value)})`, 'g'),
      (_match, before: string, word: string, _e: string, rest: string) => `${before}${word}’${rest}`,
    );
  }
  return result.replace(/« +/g, '«\u00a0').replace(/ +»/g, '\u00a0»');
}
