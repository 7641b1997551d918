/**
 * A tile's member (issue 60 item 4): "État du terminal de {name}" / "Device status of {name}" opens what its /talk
 * last reported — battery and charging, network, whether the app is open and on screen, wake lock, the last
 * position's accuracy and time, the app's version, push — with "Actualiser" asking the phone for a fresh report
 * (requestDeviceStatus; the answer arrives as `device_status`). The icon turns orange when the battery is under
 * 15 % or the app is not open, and says so. Issue 69: none for a member the server does not let this user watch (a
 * dispatcher's or an administrator's device, for a dispatcher; one's own).
 */
import BatteryAlertIcon from '@mui/icons-material/BatteryAlert';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import { GetDeviceStatus } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { callKey, useApiQuery } from '../../../api/queries.ts';
import { useServerEvent } from '../../../api/serverEvents.ts';
import { RowAction } from '../../../components/RowActions.tsx';
import { DeviceStatusDialog } from './DeviceStatusDialog.tsx';
import { deviceFlags } from './deviceFlags.ts';

export function DeviceStatusButton({ user, online }: { user: { id: number; name: string }; online: boolean }) {
  const { t } = useTranslation('dispatch');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const query = useApiQuery(GetDeviceStatus, { userId: user.id }, { staleTime: 60_000 });
  // A report pushed by the member's phone (on a change, or asked by Refresh) replaces what was read.
  useServerEvent('device_status', (status) => {
    if (status.userId === user.id)
      queryClient.setQueryData(callKey(GetDeviceStatus, { userId: user.id }), { success: true, res: status });
  });
  // Issue 69: a device status goes down the ranks; a colleague's, a superior's or one's own is no button here.
  if (query.error instanceof ApiError && query.error.code === 'role_not_below_yours') return null;
  const status = query.data?.res ?? null;
  const { lowBattery, appClosed } = deviceFlags(status, online);
  const warnings = [lowBattery ? t('device.lowBattery') : '', status && appClosed ? t('device.appClosed') : '']
    .filter(Boolean)
    .join(' · ');
  const label = t('device.open', { name: user.name });
  return (
    <>
      <RowAction
        icon={lowBattery ? <BatteryAlertIcon fontSize="small" /> : <PhoneAndroidIcon fontSize="small" />}
        label={label}
        note={warnings || undefined}
        color={warnings ? 'warning' : 'default'}
        onClick={() => setOpen(true)}
      />
      {open ? (
        <DeviceStatusDialog
          user={user}
          status={status}
          online={online}
          loading={query.isPending}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
