/**
 * One member's marker on the members' map: its label (three letters of the pseudo), green when its socket is in
 * the channel, faded and dashed when the position is old, with its status's colour as a dot (issue 49); its popup
 * with its status and age ("Sur place · 12 min", and "Statut de {name}" for a dispatcher), the last activity, the
 * position's age, longitude and latitude, and what the page offers (a private call).
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatDistanceStrict } from 'date-fns';
import type { TFunction } from 'i18next';
import L from 'leaflet';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Marker, Popup } from 'react-leaflet';
import { type MemberStatusEntry, statusLabel } from '../../api/statuses.ts';
import { AliasTag } from '../../components/AliasTag.tsx';
import { StatusChip, statusAge } from '../../components/StatusChip.tsx';
import { dateLocale } from '../../i18n/dates.ts';
import { type ChannelMember, memberName } from '../room/members/useChannelMembers.ts';
import { MemberStatusButton } from '../statuses/index.ts';
import { markerLabel } from './markerLabel.ts';

/** "Sur place · 12 min": the marker's name says what its dot shows. */
function memberStatusText(t: TFunction, entry: MemberStatusEntry, language: string | undefined, now: number): string {
  const label = statusLabel(entry.status, language);
  const since = entry.since ? Date.parse(entry.since) : Number.NaN;
  return Number.isNaN(since) ? label : t('statusChip.withAge', { label, age: statusAge(t, since, now) });
}

/** A label icon whose element Leaflet makes carries the member's name and state, however often it is redrawn. */
class MemberIcon extends L.DivIcon {
  private readonly attributes: Record<string, string>;

  constructor(
    label: string,
    inChannel: boolean,
    stale: boolean,
    statusColor: string | null,
    attributes: Record<string, string>,
  ) {
    const element = document.createElement('span');
    element.className = 'tg-marker-label';
    // textContent, not HTML: a pseudo is user input.
    element.textContent = label;
    if (statusColor) {
      const dot = document.createElement('span');
      dot.className = 'tg-marker-status';
      // A style property, not HTML: the colour is the administrator's (#rrggbb, checked by the server).
      dot.style.backgroundColor = statusColor;
      element.append(dot);
    }
    super({
      className: `tg-marker ${inChannel ? 'tg-marker--in-channel' : 'tg-marker--elsewhere'}${stale ? ' tg-marker--stale' : ''}`,
      html: element,
      iconSize: [46, 30],
      iconAnchor: [23, 38],
      popupAnchor: [0, -36],
    });
    this.attributes = attributes;
  }

  override createIcon(oldIcon?: HTMLElement): HTMLElement {
    const icon = super.createIcon(oldIcon);
    for (const [name, value] of Object.entries(this.attributes)) icon.setAttribute(name, value);
    return icon;
  }
}

export function MemberMarker({
  member,
  statusEntry,
  markers,
  describeActivity,
  format,
  now,
  staleAfterMs,
  action,
  alias,
}: {
  action?: ReactNode;
  member: ChannelMember;
  /** Its functional aliases (issue 59), shown beside its name. */
  alias?: string;
  /** Its status now (issue 49), when it has one. */
  statusEntry: MemberStatusEntry | undefined;
  markers: React.RefObject<Map<number, L.Marker>>;
  describeActivity: (member: ChannelMember) => string;
  format: (value: number) => string;
  now: number;
  staleAfterMs: number;
}) {
  const { t, i18n } = useTranslation('room');
  const { t: tCommon } = useTranslation('common');
  const markerRef = useRef<L.Marker | null>(null);
  const position = member.position as NonNullable<ChannelMember['position']>;
  const name = memberName(member.user);
  const status = member.inChannel ? t('map.inChannel') : t('map.notInChannel');
  const label = markerLabel(member.user.pseudo || name);
  const userId = member.user.id;
  const takenAt = Date.parse(position.createdAt);
  const stale = Number.isFinite(takenAt) && now - takenAt > staleAfterMs;
  const age = Number.isFinite(takenAt)
    ? formatDistanceStrict(Math.min(takenAt, now), now, { locale: dateLocale(i18n.resolvedLanguage), addSuffix: true })
    : '';
  const freshness = stale ? t('map.stale', { age }) : t('map.fresh', { age });
  const statusText = statusEntry ? memberStatusText(tCommon, statusEntry, i18n.resolvedLanguage, now) : '';
  const statusColor = statusEntry?.status.color ?? null;
  const icon = useMemo(
    () =>
      new MemberIcon(label, member.inChannel, stale, statusColor, {
        'aria-label': statusText
          ? `${name}, ${status}, ${t('map.status', { status: statusText })}`
          : `${name}, ${status}`,
        'aria-description': freshness,
        'data-user-id': String(userId),
        'data-in-channel': member.inChannel ? 'true' : 'false',
        'data-fresh': stale ? 'false' : 'true',
        ...(statusEntry ? { 'data-status-id': String(statusEntry.status.id) } : {}),
      }),
    [label, member.inChannel, name, status, userId, stale, freshness, statusColor, statusText, statusEntry, t],
  );

  useEffect(() => {
    const marker = markerRef.current;
    if (!marker) return;
    markers.current.set(userId, marker);
    return () => {
      markers.current.delete(userId);
    };
  }, [markers, userId]);

  return (
    <Marker ref={markerRef} position={[position.lat, position.lng]} icon={icon} title={name}>
      <Popup>
        <Box sx={{ minWidth: 200 }} data-testid="marker-popup">
          <Typography sx={{ fontWeight: 700, fontSize: '0.95rem' }}>{name}</Typography>
          <AliasTag alias={alias} />
          <Typography variant="caption" sx={{ color: member.inChannel ? 'success.main' : 'text.secondary' }}>
            {status}
          </Typography>
          {statusEntry ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}>
              <StatusChip status={statusEntry.status} since={statusEntry.since} setBy={statusEntry.setBy} />
              <MemberStatusButton user={{ id: userId, name }} statusId={statusEntry.status.id} />
            </Box>
          ) : (
            <Box sx={{ mt: 0.5 }}>
              <MemberStatusButton user={{ id: userId, name }} statusId={null} />
            </Box>
          )}
          <Typography variant="body2" sx={{ mt: 0.75 }}>
            {describeActivity(member)}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5, color: stale ? 'warning.dark' : 'text.secondary' }}>
            {freshness}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('map.longitude')} : {format(position.lng)}
          </Typography>
          <Typography variant="body2">
            {t('map.latitude')} : {format(position.lat)}
          </Typography>
          {action ? <Box sx={{ mt: 1 }}>{action}</Box> : null}
        </Box>
      </Popup>
    </Marker>
  );
}
