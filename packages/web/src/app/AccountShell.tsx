/**
 * /account (issue 38): the account feature's page with the account menu of the top bars, and its sections
 * in order. Each section belongs to the feature; this file only puts them on the page.
 */
import {
  AccountPage,
  FunctionsSection,
  PasskeysSection,
  SessionsSection,
  SsoSection,
  TwoStepSection,
} from '../features/account/index.ts';
import { AccountMenu } from './shell/AccountMenu.tsx';

export default function AccountShell() {
  return (
    <AccountPage accountMenu={<AccountMenu />}>
      <PasskeysSection />
      <TwoStepSection />
      <SsoSection />
      <SessionsSection />
      <FunctionsSection />
    </AccountPage>
  );
}
