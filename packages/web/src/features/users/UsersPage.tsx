/** /usersList (spec section 2): the users table with its toolbar; `?add=1` (the sidebar's add icon) opens Add User. */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAddRequest } from '../../components/shell/ShellContext.tsx';
import { AddUserDialog } from './AddUserDialog.tsx';
import { UsersTable } from './UsersTable.tsx';

export default function UsersPage() {
  const { t } = useTranslation('users');
  const { adding, closeAdd } = useAddRequest();
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <UsersTable variant="full" />
      <AddUserDialog open={adding} onClose={closeAdd} />
    </>
  );
}
