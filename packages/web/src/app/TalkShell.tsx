/**
 * The frame of the members' app (/talk): the talk feature's layout with the account menu of the console's
 * top bar (language, Logout), which lives in the app layer.
 */
import { TalkLayout } from '../features/talk/index.ts';
import { AccountMenu } from './shell/AccountMenu.tsx';

export default function TalkShell() {
  return <TalkLayout accountMenu={<AccountMenu />} />;
}
