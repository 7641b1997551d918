/** Private calls (issue 27): the pages' ring and call (PrivateCallCenter), and "Private call" on a member's row. */

export { AliasCallButton } from './AliasCallButton.tsx';
export { CallHistory } from './CallHistory.tsx';
export { CallSettingsSwitch } from './CallSettingsSwitch.tsx';
export { followPlacedCall } from './callState.ts';
export { PrivateCallButton, useMayCall } from './PrivateCallButton.tsx';
export { PrivateCallCenter } from './PrivateCallCenter.tsx';
