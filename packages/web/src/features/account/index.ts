/** The user's own account page (/account): passkeys, second factor, single sign-on, sessions, functions (issue 59). */
export { AccountPage, AccountSection } from './AccountPage.tsx';
export { FunctionsSection } from './FunctionsSection.tsx';
export { PasskeysSection, webAuthnProblem } from './PasskeysSection.tsx';
export { SessionsSection } from './SessionsSection.tsx';
export { SsoSection } from './SsoSection.tsx';
export { TwoStepSection } from './TwoStepSection.tsx';
