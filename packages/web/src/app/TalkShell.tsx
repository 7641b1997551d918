/**
 * The frame of the members' app (/talk): the talk feature's layout with the account menu of the console's
 * top bar (language, Logout), which lives in the app layer. An administrator using it still gets the SOS
 * banner of the console: an alert must reach every administrator's screen.
 */
import { useMay } from '../api/session.ts';
import { PrivateCallCenter } from '../engines/calls/index.ts';
import { EmergencyCenter } from '../engines/emergency/index.ts';
import { TalkLayout } from '../features/talk/index.ts';
import { AccountMenu } from './shell/AccountMenu.tsx';

export default function TalkShell() {
  // Whoever takes alerts (administrators, dispatchers of their channels) gets the SOS banner here too.
  const takesAlerts = useMay().somewhere('channel.alerts');
  return (
    <>
      {takesAlerts ? <EmergencyCenter /> : null}
      {/* A phone rings full screen for a private call (issue 27). */}
      <PrivateCallCenter fullScreen />
      <TalkLayout accountMenu={<AccountMenu />} />
    </>
  );
}
