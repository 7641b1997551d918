/** Where a member crossed a zone's edge: the zone and the member's reported position, on a map. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { type GeofenceAlert, GetClientConfig, GetGeofences } from '@talkgroup/protocol';
import 'leaflet/dist/leaflet.css';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Circle, CircleMarker, MapContainer, Polygon, Tooltip } from 'react-leaflet';
import { useApiQuery } from '../../api/queries.ts';
import { BaseTiles } from '../map/BaseTiles.tsx';

export function GeofenceAlertMapDialog({ alert, onClose }: { alert: GeofenceAlert; onClose: () => void }) {
  const { t } = useTranslation('tracking');
  const titleId = useId();
  const config = useApiQuery(GetClientConfig, {}, { staleTime: Number.POSITIVE_INFINITY }).data?.res;
  const fence = useApiQuery(GetGeofences, {}).data?.res.find((candidate) => candidate.id === alert.geofenceId);
  const sentence = t(alert.kind === 'enter' ? 'alerts.enter' : 'alerts.exit', {
    user: alert.userName,
    zone: alert.name,
  });
  const style = { color: '#ffb300', weight: 3, fillOpacity: 0.12 };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{sentence}</DialogTitle>
      <DialogContent sx={{ height: { xs: 360, md: 480 }, p: 0 }}>
        {config ? (
          <MapContainer
            center={[alert.lat, alert.lng]}
            zoom={Math.min(16, config.mapMaxZoom)}
            maxZoom={config.mapMaxZoom}
            style={{ height: '100%', width: '100%' }}
          >
            <BaseTiles config={config} />
            {fence?.shape.type === 'circle' ? (
              <Circle center={[fence.shape.lat, fence.shape.lng]} radius={fence.shape.radiusM} pathOptions={style} />
            ) : null}
            {fence?.shape.type === 'polygon' ? <Polygon positions={fence.shape.points} pathOptions={style} /> : null}
            <CircleMarker
              center={[alert.lat, alert.lng]}
              radius={10}
              pathOptions={{ color: '#fff', weight: 3, fillColor: '#1565c0', fillOpacity: 1 }}
            >
              <Tooltip permanent direction="top" offset={[0, -10]}>
                {alert.userName}
              </Tooltip>
            </CircleMarker>
          </MapContainer>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('alerts.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
