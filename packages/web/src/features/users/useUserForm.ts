/**
 * The Add User and Edit User Profile form state: react-hook-form validated by the protocol's schemas (userForm.ts).
 * `submitWith(action)` left-trims the texts (spec section 5), validates them, and either runs `action` with the
 * values or calls `refuse` with the dialog's one message key ('validation.checkFields', ...).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import {
  addUserSchema,
  editUserSchema,
  leftTrimmed,
  refusalOf,
  TRIMMED_FIELDS,
  type UserFormValues,
} from './userForm.ts';

export function useUserForm(mode: 'add' | 'edit', defaultValues: UserFormValues, refuse: (key: string) => void) {
  const form = useForm<UserFormValues>({
    defaultValues,
    // raw: the values as typed (left-trimmed here), not the schema's fully trimmed output.
    resolver: zodResolver(mode === 'add' ? addUserSchema : editUserSchema, undefined, { raw: true }),
  });
  const submitWith = (action: (values: UserFormValues) => Promise<void>) => (event: FormEvent) => {
    const trimmed = leftTrimmed(form.getValues());
    for (const name of TRIMMED_FIELDS) form.setValue(name, trimmed[name]);
    return form.handleSubmit(action, () => refuse(refusalOf(form.getValues(), mode)))(event);
  };
  return { form, submitWith };
}
