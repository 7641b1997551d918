/** Why an SOS was raised (issue 60): "SOS", "Homme à terre" / "Man down", "Sans réponse" / "No response". */
import type { EmergencyAlert } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';

export function AlertReason({ alert }: { alert: Pick<EmergencyAlert, 'reason' | 'raisedBy'> }) {
  const { t } = useTranslation('safety');
  const reason = t(`reason.${alert.reason ?? 'sos'}`);
  return (
    <span data-testid="sos-reason">
      {alert.raisedBy ? `${reason} (${t('raisedBy', { name: alert.raisedBy.display_name })})` : reason}
    </span>
  );
}
