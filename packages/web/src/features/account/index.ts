/** The user's own account page (/account): passkeys, second factor, sessions. */
export { AccountPage, AccountSection } from './AccountPage.tsx';
export { PasskeysSection, webAuthnProblem } from './PasskeysSection.tsx';
export { SessionsList } from './SessionsList.tsx';
export { SessionsSection } from './SessionsSection.tsx';
export { TwoStepSection } from './TwoStepSection.tsx';
