/**
 * The zone tools beside a map, for those who may draw: draw a circle or a polygon (Leaflet-Geoman draws on the
 * map, GeofenceLayer), the zones as a list (a zone's settings, reshape, delete: the same as clicking it on the
 * map, reachable by keyboard), the reshape's Save / Cancel, and the settings dialog.
 */
import CircleOutlined from '@mui/icons-material/CircleOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DrawOutlined from '@mui/icons-material/DrawOutlined';
import PentagonOutlined from '@mui/icons-material/PentagonOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Geofence } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { formatDate } from '../../i18n/dates.ts';
import { useDeleteGeofence, useUpdateGeofence } from './api/geofences.ts';
import { GeofenceDialog } from './GeofenceDialog.tsx';
import type { MapTracking } from './useMapTracking.ts';

function ZoneRow({ fence, tracking }: { fence: Geofence; tracking: MapTracking }) {
  const { t, i18n } = useTranslation('tracking');
  const confirm = useConfirm();
  const notify = useNotify();
  const remove = useDeleteGeofence();
  const state = !fence.active
    ? t('zones.inactive')
    : fence.activeUntil
      ? t('zones.until', { time: formatDate(fence.activeUntil, undefined, i18n.resolvedLanguage) })
      : '';
  const deleteFence = async () => {
    const sure = await confirm({
      title: t('zones.confirmTitle'),
      message: t('zones.confirmDelete', { name: fence.name }),
      confirmLabel: t('zones.deleteButton'),
      destructive: true,
    });
    if (!sure) return;
    try {
      await remove.mutateAsync({ id: fence.id });
    } catch (error) {
      notify({ severity: 'error', message: errorMessage(error, t('zones.failed')) });
    }
  };
  const action = (label: string, icon: React.ReactNode, onClick: () => void, color?: 'error') => (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={onClick} color={color}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minHeight: 40 }}>
      <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        <strong>{fence.name}</strong> · {t(`zones.alertOn.${fence.alertOn}`)}
        {fence.channelId === null ? ` · ${t('zones.everyone')}` : ''}
        {state ? ` · ${state}` : ''}
      </Typography>
      {action(t('zones.settings', { name: fence.name }), <SettingsOutlined fontSize="small" />, () =>
        tracking.setSettingsOf(fence.id),
      )}
      {action(t('zones.editShape', { name: fence.name }), <DrawOutlined fontSize="small" />, () =>
        tracking.setReshaping(fence.id),
      )}
      {action(t('zones.delete', { name: fence.name }), <DeleteOutlined fontSize="small" />, deleteFence, 'error')}
    </Box>
  );
}

export function ZoneTools({ tracking }: { tracking: MapTracking }) {
  const { t } = useTranslation('tracking');
  const notify = useNotify();
  const update = useUpdateGeofence();
  const reshaped = tracking.fences.find((fence) => fence.id === tracking.reshaping);
  const settings = tracking.fences.find((fence) => fence.id === tracking.settingsOf) ?? null;

  const saveShape = async () => {
    const shape = tracking.readReshaped.current?.();
    if (!reshaped || !shape) return;
    try {
      await update.mutateAsync({ id: reshaped.id, shape });
      tracking.setReshaping(null);
    } catch (error) {
      notify({ severity: 'error', message: errorMessage(error, t('zones.failed')) });
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {reshaped ? (
        <Alert
          severity="info"
          action={
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button color="inherit" size="small" onClick={() => tracking.setReshaping(null)}>
                {t('zones.cancelShape')}
              </Button>
              <Button variant="contained" size="small" disabled={update.isPending} onClick={saveShape}>
                {t('zones.saveShape')}
              </Button>
            </Box>
          }
        >
          {t('zones.editingShape', { name: reshaped.name })}
        </Alert>
      ) : tracking.drawing ? (
        <Alert
          severity="info"
          action={
            <Button color="inherit" size="small" onClick={() => tracking.setDrawing(null)}>
              {t('zones.cancelDrawing')}
            </Button>
          }
        >
          {tracking.drawing === 'Circle' ? t('zones.drawingCircle') : t('zones.drawingPolygon')}
        </Alert>
      ) : (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button
            variant="outlined"
            size="small"
            startIcon={<CircleOutlined />}
            onClick={() => tracking.setDrawing('Circle')}
          >
            {t('zones.drawCircle')}
          </Button>
          <Button
            variant="outlined"
            size="small"
            startIcon={<PentagonOutlined />}
            onClick={() => tracking.setDrawing('Polygon')}
          >
            {t('zones.drawPolygon')}
          </Button>
        </Box>
      )}
      {tracking.fences.length > 0 ? (
        <Box component="ul" aria-label={t('zones.list')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {tracking.fences.map((fence) => (
            <ZoneRow key={fence.id} fence={fence} tracking={tracking} />
          ))}
        </Box>
      ) : null}
      <GeofenceDialog
        shape={tracking.pendingShape}
        fence={settings}
        channelId={tracking.channelId}
        channels={tracking.channels}
        drawsForEveryone={tracking.drawsForEveryone}
        onClose={() => {
          tracking.clearPending();
          tracking.setSettingsOf(null);
        }}
      />
    </Box>
  );
}
