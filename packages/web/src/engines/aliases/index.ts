/** Functional aliases (issue 59): a dispatcher or an administrator gives one to a member, or takes it back. */
export { AssignAliasButton } from './AssignAliasButton.tsx';
