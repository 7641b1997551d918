/**
 * The little form state the sign-in and sign-up pages need (react-hook-form stays out of the first bundle):
 * a field's blocking error shows once it was typed in and left, or the form was submitted, and follows every
 * keystroke after that.
 */
import { type ChangeEvent, type FormEvent, useState } from 'react';
import type { ValidationKey } from './fields.ts';

type Values = Record<string, string | boolean>;
export type Rules<V extends Values> = Partial<{ [K in keyof V]: (value: V[K]) => ValidationKey | undefined }>;

export function useAuthForm<V extends Values>(initial: V, rules: Rules<V>, idOf: (name: keyof V) => string) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const problem = (name: keyof V) => rules[name]?.(values[name]);
  const error = (name: keyof V) => (touched[name] || submitted ? problem(name) : undefined);

  const field = (name: keyof V & string) => ({
    id: idOf(name),
    name,
    value: values[name] as string,
    error: Boolean(error(name)),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
    // Leaving a field never typed in says nothing yet: a "Required" appearing under it would move the page
    // under the pointer that is leaving it (a click on the sign-up link would land beside it).
    onBlur: () => {
      if (values[name] !== initial[name]) setTouched((current) => ({ ...current, [name]: true }));
    },
  });

  const checkbox = (name: keyof V & string) => ({
    name,
    checked: values[name] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.checked })),
  });

  /** Validates everything; on a blocking error focuses the first wrong field, else runs the action. */
  const onSubmit = (action: (values: V) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const wrong = (Object.keys(rules) as Array<keyof V>).find((name) => problem(name));
    if (wrong !== undefined) {
      document.getElementById(idOf(wrong))?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await action(values);
    } finally {
      setSubmitting(false);
    }
  };

  return {
    values,
    field,
    checkbox,
    error,
    onSubmit,
    submitting,
    dirty: (name: keyof V) => values[name] !== initial[name],
  };
}
