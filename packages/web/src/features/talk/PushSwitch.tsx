/**
 * "Notifications" on /talk (issue 34): on, this device gets a notification for an SOS, a call that rings, a
 * transmission in a channel it is not in, a geofence alert, even with the app closed; off, none. Where the
 * browser cannot (no Push API, permission denied, iOS outside a home-screen app, push off on the server), a
 * sentence says why.
 */
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { GetClientConfig } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { useSession } from '../../api/session.ts';
import { currentSubscription, type PushUnavailable, pushUnavailable, turnOff, turnOn } from './pushSubscription.ts';

export function PushSwitch() {
  const { t } = useTranslation('talk');
  const userId = useSession()?.user?.id;
  const config = useApiQuery(GetClientConfig, {}, { staleTime: Number.POSITIVE_INFINITY });
  const publicKey = config.data ? config.data.res.pushPublicKey : undefined;
  const [unavailable, setUnavailable] = useState<PushUnavailable | null>(null);
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    if (publicKey === undefined || userId === undefined) return;
    const why = pushUnavailable(publicKey);
    setUnavailable(why);
    if (why) return;
    let live = true;
    currentSubscription(userId)
      .then((subscribed) => live && setOn(subscribed))
      .catch(() => live && setOn(false));
    return () => {
      live = false;
    };
  }, [publicKey, userId]);

  const change = async (wanted: boolean) => {
    if (!publicKey || userId === undefined) return;
    setBusy(true);
    setProblem('');
    try {
      if (wanted) {
        const outcome = await turnOn(publicKey, userId);
        if (outcome === 'denied') setUnavailable(pushUnavailable(publicKey) ?? 'denied');
        setOn(outcome === 'on');
      } else {
        await turnOff();
        setOn(false);
      }
    } catch (error) {
      setProblem(errorMessage(error, t('push.failed')));
    } finally {
      setBusy(false);
    }
  };

  if (publicKey === undefined) return null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }}>
      <FormControlLabel
        sx={{ minHeight: 48, mr: 0 }}
        control={
          <Switch
            checked={on && !unavailable}
            disabled={busy || unavailable !== null}
            onChange={(event) => void change(event.target.checked)}
          />
        }
        label={t('push.label')}
      />
      <Typography variant="body2" role="status" sx={{ color: 'text.secondary', pl: 1, mt: -0.5 }}>
        {problem || (unavailable ? t(`push.unavailable.${unavailable}`) : t(on ? 'push.on' : 'push.off'))}
      </Typography>
    </Box>
  );
}
