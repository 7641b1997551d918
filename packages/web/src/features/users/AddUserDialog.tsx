/**
 * Add User dialog (spec sections 2, 5 and 8). Props: `open`, `onClose()`, optional `onCreated(user)`.
 * Creates the user with signUpUser under the administrator's token (pseudo and mapRight included), then adds it
 * to each chosen channel with addUserToChannel. Blank required fields: 'User not created' + the check-fields
 * text; different passwords: the inline mismatch text, and creation is blocked.
 */
import type { User } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useChannels } from '../../api/directory.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { SELECTION_PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { useCreateUser } from './api/createUser.ts';
import { UserFormFields } from './UserFormFields.tsx';
import { EMPTY_USER_FORM } from './userForm.ts';
import { useUserForm } from './useUserForm.ts';

export interface AddUserDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated?: (user: User) => void;
}

export function AddUserDialog({ open, onClose, onCreated }: AddUserDialogProps) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  // Asked when the dialog opens: the list it sits in need not wait for every channel.
  const channels = useChannels({ enabled: open });
  const create = useCreateUser();
  const [problem, setProblem] = useState<Notice | null>(null);
  const refuse = (message: string) => setProblem({ severity: 'error', title: t('users:add.notCreated'), message });
  const { form, submitWith } = useUserForm('add', EMPTY_USER_FORM, (key) => refuse(t(`users:${key}` as never)));

  const { reset } = form;
  const resetMutation = create.reset;
  useEffect(() => {
    if (open) {
      reset(EMPTY_USER_FORM);
      resetMutation();
      setProblem(null);
    }
  }, [open, reset, resetMutation]);

  const submit = submitWith(async (form) => {
    if (create.isPending) return;
    try {
      const created = await create.mutateAsync({
        user: {
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.login,
          password: form.password,
          phone_number: '',
          pseudo: form.pseudo,
          mapRight: form.mapRight,
          role: form.role,
          talkPriority: form.talkPriority,
        },
        channelIds: form.channelIds,
      });
      // Spec section 8: once the user exists the creation counts as a success, even if a channel fails.
      notify(
        created.channelsFailed
          ? { severity: 'warning', title: t('users:add.created'), message: t('users:add.channelsFailed') }
          : { severity: 'success', message: t('users:add.created') },
      );
      onCreated?.(created.user);
      onClose();
    } catch (error) {
      refuse(errorMessage(error, t('common:errors.somethingWrong')));
    }
  });

  const busy = create.isPending;
  return (
    <FormDialog
      open={open}
      title={t('users:add.title')}
      onClose={onClose}
      busy={busy}
      onSubmit={submit}
      notice={problem}
      actions={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={busy}>{t('users:add.submit')}</SubmitButton>
        </>
      }
    >
      <FormProvider {...form}>
        <UserFormFields
          mode="add"
          channels={channels.data?.res ?? []}
          channelsLoading={channels.isPending}
          pageSizes={SELECTION_PAGE_SIZES}
        />
      </FormProvider>
    </FormDialog>
  );
}
