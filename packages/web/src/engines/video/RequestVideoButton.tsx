/**
 * "Ask for video from {name}" on a member's row of the console (issue 61 item 2): `requestVideo`, then the
 * member's answer (`video_request_answered`) said in a notice; the server's sentence when it refuses (the member's
 * app closed, listen-only).
 */
import VideocamOutlinedIcon from '@mui/icons-material/VideocamOutlined';
import { RequestVideo } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useApiMutation } from '../../api/queries.ts';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { RowAction } from '../../components/RowActions.tsx';

export function RequestVideoButton({
  user,
  channelId,
  disabled = false,
}: {
  user: { id: number; name: string };
  channelId: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation('video');
  const notify = useNotify();
  const selfId = useSession()?.user?.id;
  const [waiting, setWaiting] = useState<string | null>(null);
  const { socket } = useSharedSocket();
  const request = useApiMutation(RequestVideo, {
    onSuccess: ({ res }) => {
      setWaiting(res.requestId);
      notify({
        severity: 'info',
        message: t(res.withoutConsent ? 'request.sentWithoutConsent' : 'request.sent', { name: user.name }),
      });
    },
    onError: (error) => notify({ severity: 'error', message: errorMessage(error, t('request.failed')) }),
  });

  useEffect(() => {
    if (!socket || !waiting) return;
    const onAnswered = (answer: { requestId: string; accepted: boolean; expired?: boolean }) => {
      if (answer.requestId !== waiting) return;
      setWaiting(null);
      const outcome = answer.accepted ? 'accepted' : answer.expired ? 'expired' : 'declined';
      notify({
        severity: answer.accepted ? 'success' : 'warning',
        message: t(`request.${outcome}`, { name: user.name }),
      });
    };
    socket.on('video_request_answered', onAnswered);
    return () => {
      socket.off('video_request_answered', onAnswered);
    };
  }, [socket, waiting, notify, t, user.name]);

  const label = t('request.ask', { name: user.name });
  // One does not ask oneself (the desk's own row).
  if (selfId === user.id) return null;
  return (
    <RowAction
      icon={<VideocamOutlinedIcon fontSize="small" />}
      label={label}
      disabled={disabled || request.isPending}
      onClick={() => request.mutate({ userId: user.id, channelId })}
    />
  );
}
