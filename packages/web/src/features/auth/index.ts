/** Signing in, signing up and signing out. */
export { LogoutDialog } from './LogoutDialog.tsx';
export { default as SignInPage } from './SignInPage.tsx';
export { default as SignUpPage } from './SignUpPage.tsx';
