/** The team's members: the /usersList page, the users table (full or dashboard) and the Add User dialog. */
export { AddUserDialog, type AddUserDialogProps } from './AddUserDialog.tsx';
export { default as UsersPage } from './UsersPage.tsx';
export { UsersTable, type UsersTableProps } from './UsersTable.tsx';
