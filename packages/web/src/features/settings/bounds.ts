/**
 * A bounded settings field's words (issue 70): its bounds shown beside it ("20 s minimum", "De 5 à 300 s") and,
 * when a save was refused for it, what to change, from the server's `fields` (its bound, in the reader's language).
 */
import type { FieldIssue } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { fieldIssue } from '../../api/client.ts';

export interface Bounds {
  min?: number;
  max?: number;
  unit?: 'seconds' | 'minutes';
}

export interface FieldWords {
  /** The helper text: what to change after a refusal, else the bounds. */
  helperText: string;
  error: boolean;
}

export function useFieldWords() {
  const { t, i18n } = useTranslation('settings');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const shown = (value: number | undefined) => (value === undefined ? undefined : number.format(value));
  const unitOf = (unit: Bounds['unit']) => (unit ? t(`bounds.units.${unit}`) : '');
  const boundsText = ({ min, max, unit }: Bounds): string => {
    const values = { min: shown(min), max: shown(max), unit: unitOf(unit) };
    if (min !== undefined && max !== undefined) return t('bounds.range', values);
    if (min !== undefined) return t('bounds.atLeast', values);
    if (max !== undefined) return t('bounds.atMost', values);
    return '';
  };
  const refusalText = (issue: FieldIssue, bounds: Bounds): string => {
    const unit = unitOf(issue.unit ?? bounds.unit);
    if (issue.min !== undefined) return t('bounds.tooSmall', { min: shown(issue.min), unit });
    if (issue.max !== undefined) return t('bounds.tooBig', { max: shown(issue.max), unit });
    return `${t('bounds.refused')} ${boundsText(bounds)}`.trim();
  };
  /** The words of the field at `path` of the body, given the last save's error. */
  return (path: string, bounds: Bounds, error: unknown): FieldWords => {
    const issue = fieldIssue(error, path);
    return issue
      ? { helperText: refusalText(issue, bounds), error: true }
      : { helperText: boundsText(bounds), error: false };
  };
}
