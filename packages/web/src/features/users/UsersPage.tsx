/** /usersList (spec section 2): the users table with its toolbar; `?add=1` (the sidebar's add icon) opens Add User. */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ADD_PARAM } from '../../components/shell/ShellContext.tsx';
import { AddUserDialog } from '../../components/users/AddUserDialog.tsx';
import { UsersTable } from '../../components/users/UsersTable.tsx';

export default function UsersPage() {
  const { t } = useTranslation('users');
  const [params, setParams] = useSearchParams();
  const adding = params.has(ADD_PARAM);
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <UsersTable variant="full" />
      <AddUserDialog
        open={adding}
        onClose={() =>
          setParams(
            (current) => {
              current.delete(ADD_PARAM);
              return current;
            },
            { replace: true },
          )
        }
      />
    </>
  );
}
