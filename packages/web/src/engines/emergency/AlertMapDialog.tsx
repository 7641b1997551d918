/** Where the sender of an SOS is: its position on the map, with the accuracy as a circle. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { type EmergencyAlert, GetClientConfig } from '@talkgroup/protocol';
import 'leaflet/dist/leaflet.css';
import { useTranslation } from 'react-i18next';
import { Circle, CircleMarker, MapContainer } from 'react-leaflet';
import { useApiQuery } from '../../api/queries.ts';
import { BaseTiles } from '../map/BaseTiles.tsx';

export function AlertMapDialog({ alert, onClose }: { alert: EmergencyAlert; onClose: () => void }) {
  const { t } = useTranslation('emergency');
  const config = useApiQuery(GetClientConfig, {}, { staleTime: Number.POSITIVE_INFINITY }).data?.res;
  const titleId = `sos-map-${alert.id}`;
  const center: [number, number] | null = alert.lat !== null && alert.lng !== null ? [alert.lat, alert.lng] : null;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('banner.mapTitle', { name: alert.display_name })}</DialogTitle>
      <DialogContent sx={{ height: { xs: 360, md: 480 }, p: 0 }}>
        {center && config ? (
          <MapContainer
            center={center}
            zoom={Math.min(16, config.mapMaxZoom)}
            maxZoom={config.mapMaxZoom}
            style={{ height: '100%', width: '100%' }}
          >
            <BaseTiles config={config} />
            {alert.accuracy ? (
              <Circle center={center} radius={alert.accuracy} pathOptions={{ color: '#c62828', weight: 1 }} />
            ) : null}
            <CircleMarker
              center={center}
              radius={10}
              pathOptions={{ color: '#fff', weight: 3, fillColor: '#c62828', fillOpacity: 1 }}
            />
          </MapContainer>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('banner.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
