/** Issue 70: "Statut de Inès" reads "Statut d’Inès", and a "»" never starts a line alone. */
import { describe, expect, it } from 'vitest';
import { elides, frenchTypography } from './frenchTypography.ts';

describe('frenchTypography', () => {
  it('elides "de" and "que" before a value that begins with a vowel or a mute h', () => {
    expect(frenchTypography('Statut de Inès', { name: 'Inès' })).toBe('Statut d’Inès');
    expect(frenchTypography('Vidéo de Hélène Roux', { name: 'Hélène Roux' })).toBe('Vidéo d’Hélène Roux');
    expect(frenchTypography('De Inès : rien', { name: 'Inès' })).toBe('D’Inès : rien');
    expect(frenchTypography('Il dit que Éric arrive', { name: 'Éric' })).toBe('Il dit qu’Éric arrive');
  });

  it('keeps "de" before a consonant, an aspirated h, a number, or words that are not the value', () => {
    expect(frenchTypography('Statut de Léo', { name: 'Léo' })).toBe('Statut de Léo');
    expect(frenchTypography('Transmissions de Hangar B', { channel: 'Hangar B' })).toBe('Transmissions de Hangar B');
    expect(frenchTypography('Écoute de 8 membres', { count: 8 })).toBe('Écoute de 8 membres');
    expect(frenchTypography('Liste de appels', { name: 'Inès' })).toBe('Liste de appels');
    expect(frenchTypography('Garde de Inès', {})).toBe('Garde de Inès');
    expect(elides('Hugo')).toBe(true);
    expect(elides('haut du site')).toBe(false);
  });

  it('holds guillemets to their words with non-breaking spaces', () => {
    expect(frenchTypography('Aucun coéquipier ne correspond à « zzz »')).toBe(
      'Aucun coéquipier ne correspond à «\u00a0zzz\u00a0»',
    );
  });
});
