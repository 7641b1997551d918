/**
 * Follows a change of the signed-in user's rights made while it is connected (`rights_changed`, issue 35: its
 * role, its map access, a channel it was removed from, whether it may talk there). The server has already taken
 * its sockets out of what it may no longer be in; here the page reads the session (its role: guards and menus
 * follow) and every list again (a channel's page then says it is not one of its members, the map goes when
 * it may no longer see it, a listen-only channel refuses the press), and says what changed.
 */
import { may, type RegroupEnded, type RightsChanged } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { markChannelGone } from '../api/goneChannels.ts';
import { useServerEvent } from '../api/serverEvents.ts';
import { useNotify } from '../components/Notifier.tsx';
import { refreshStoredUser } from './sessionCheck.ts';

export default function RightsFollower() {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  useServerEvent('rights_changed', ({ role, mapRight, changes }: RightsChanged) => {
    if (changes.includes('role')) refreshStoredUser();
    void queryClient.invalidateQueries();
    const sentences: string[] = [];
    if (changes.includes('role')) sentences.push(t('rights.role', { role: t(`rights.roles.${role}` as never) }));
    if (changes.includes('map'))
      sentences.push(may({ role, mapRight }, { member: true }, 'channel.map') ? t('rights.mapOn') : t('rights.mapOff'));
    if (changes.includes('channels')) sentences.push(t('rights.channels'));
    if (changes.includes('talk')) sentences.push(t('rights.talk'));
    notify({ severity: 'info', title: t('rights.title'), message: sentences.join(' '), duration: 8000 });
  });
  const { pathname } = useLocation();
  useServerEvent('regroup_ended', ({ channelId, name, backTo }: RegroupEnded) => {
    markChannelGone(channelId);
    // Its answers (members, history, activities…) would be asked again when invalidated: they go now.
    queryClient.removeQueries({ predicate: ({ queryKey }) => namesChannel(queryKey, channelId) });
    if (/^\/talk(\/|$)/.test(pathname)) return;
    // Its words are /talk's (loaded here only when a regroup ends: not in the first page's bundle).
    void i18n.loadNamespaces('talk').then(() => {
      const said = i18n.getFixedT(null, 'talk');
      notify({
        severity: 'info',
        title: said('selected.regroupEndTitle', { name }),
        message: backTo
          ? said('selected.regroupEndBackTo', { channel: backTo.channelName })
          : said('selected.regroupEndGone'),
        duration: 8000,
      });
    });
  });
  return null;
}

/** Whether a query's key (callKey: the path, then the body) asks about this channel. */
function namesChannel(queryKey: readonly unknown[], channelId: number): boolean {
  const body = queryKey[1];
  return typeof body === 'object' && body !== null && (body as { channelId?: unknown }).channelId === channelId;
}
