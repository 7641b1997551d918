/** What the console flags in a member's device status (issue 60): a battery under 15 % not charging, an app not open. */
import { DEVICE_LOW_BATTERY, type DeviceStatus } from '@talkgroup/protocol';

export function deviceFlags(status: DeviceStatus | null, online: boolean): { lowBattery: boolean; appClosed: boolean } {
  const lowBattery = Boolean(status?.battery && status.battery.level < DEVICE_LOW_BATTERY && !status.battery.charging);
  return { lowBattery, appClosed: !online || (status !== null && !status.appOpen) };
}
