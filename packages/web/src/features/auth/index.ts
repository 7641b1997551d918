/**
 * Signing in: the page of the first bundle (keep this index to it: whatever it exports loads before the sign-in
 * page can paint). The sign-up page loads from its own file when /signup is opened (app/router.tsx): it brings
 * the users' schemas, which the sign-in page does not need. Signing out is the shell's account menu
 * (app/shell/LogoutDialog.tsx).
 */
export { default as SignInPage } from './SignInPage.tsx';
