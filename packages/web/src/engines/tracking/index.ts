/**
 * Trails, zones and their alerts (issue 28), as pieces any map of the console mounts (the room's, the dispatch
 * console's): `useMapTracking` holds a map's state; `TrackingToolbar` goes beside the map, `TrackingLayers`
 * inside its MapContainer; `GeofenceAlerts` shows zone alerts on every console page; `PositionExportButton`
 * exports a user's positions (a user's row).
 */
export { GeofenceAlerts, useGeofenceAlerts } from './GeofenceAlerts.tsx';
export { GeofenceLayer } from './GeofenceLayer.tsx';
export { PositionExportButton, PositionExportDialog, type PositionExportTarget } from './PositionExportDialog.tsx';
export { TrackingLayers } from './TrackingLayers.tsx';
export { TrackingToolbar } from './TrackingToolbar.tsx';
export { type MapTracking, type MapTrackingOptions, type TrackedMember, useMapTracking } from './useMapTracking.ts';
