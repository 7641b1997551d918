/**
 * Signing in and signing up: the two pages of the first bundle (keep this index to them: whatever it exports
 * loads before the sign-in page can paint). Signing out is the shell's account menu (app/shell/LogoutDialog.tsx).
 */
export { default as SignInPage } from './SignInPage.tsx';
export { default as SignUpPage } from './SignUpPage.tsx';
