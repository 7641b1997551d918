/** The emergency alert (issue 14): the SOS button of every room and the administrators' SOS banner. */

export { AlertReason } from './AlertReason.tsx';
export { ChannelAlertList, useChannelAlerts } from './ChannelAlerts.tsx';
export { CloseAlertButton, useClosedSentence } from './CloseAlert.tsx';
export { EmergencyCenter, SOS_BAND_HEIGHT } from './EmergencyCenter.tsx';
export { LoneWorkerAlertList, useLoneWorkerAlerts } from './LoneWorkerAlerts.tsx';
export { quickPosition, SosButton } from './SosButton.tsx';
export { useEmergencyAlerts } from './useEmergencyAlerts.ts';
export { useMyEmergencyAlert } from './useMyEmergencyAlert.ts';
