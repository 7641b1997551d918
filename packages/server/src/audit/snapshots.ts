/**
 * What an audit row compares before and after a change (auditing.ts): each kind of target's fields as the
 * audit log shows them, read in the change's transaction. A secret's hash is read to be compared, never written
 * (auditing.ts's changesBetween keeps only whether it changed).
 */
import type { Db } from '../db/schema.ts';

export type Snapshot = Record<string, unknown> & { name: string };
export type TargetType = 'user' | 'channel' | 'activity' | 'alert' | 'geofence' | 'setting' | 'gateway' | 'alias';

/** A JSON list as a list (how the log shows it), or the text stored should it not read as one. */
function listOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function snapshot(db: Db, type: TargetType, id: number): Promise<Snapshot | undefined> {
  if (type === 'user') {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const channels = await db
      .selectFrom('channel_members')
      .select('channel_id')
      .where('user_id', '=', id)
      .orderBy('channel_id')
      .execute();
    const sessions = await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', id)
      .executeTakeFirst();
    return {
      name: row.display_name || `${row.first_name} ${row.last_name}`,
      firstName: row.first_name,
      lastName: row.last_name,
      identifier: row.identifier,
      pseudo: row.pseudo,
      phone_number: row.phone_number,
      photo_url: row.photo_url,
      mapRight: row.map_right === 1,
      role: row.role,
      // Null: the role's default (issue 59).
      talkPriority: row.talk_priority,
      disabled: row.disabled_at !== null,
      channels: channels.map((c) => c.channel_id),
      sessions: Number(sessions?.n ?? 0),
      // Only whether it changed is kept: the hash itself is compared here and never written.
      password: row.password_hash,
    };
  }
  if (type === 'channel') {
    const row = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const members = await db
      .selectFrom('channel_members')
      .select(['user_id', 'can_talk'])
      .where('channel_id', '=', id)
      .orderBy('user_id')
      .execute();
    return {
      name: row.name,
      floorControl: row.floor_control === 1,
      voiceMode: row.voice_mode,
      recording: row.recording === 1,
      videoAudience: row.video_audience,
      members: members.map((m) => m.user_id),
      listenOnly: members.filter((m) => m.can_talk === 0).map((m) => m.user_id),
    };
  }
  if (type === 'geofence') {
    const row = await db.selectFrom('geofences').selectAll().where('id', '=', id).executeTakeFirst();
    return row
      ? {
          name: row.name,
          channelId: row.channel_id,
          shape: JSON.parse(row.shape),
          alertOn: row.alert_on,
          activeUntil: row.active_until,
        }
      : undefined;
  }
  if (type === 'gateway') {
    const row = await db.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const channels = await db
      .selectFrom('gateway_channels')
      .select('channel_id')
      .where('gateway_id', '=', id)
      .orderBy('channel_id')
      .execute();
    return {
      name: row.name,
      login: row.login,
      channels: channels.map((c) => c.channel_id),
      allowedAddresses: JSON.parse(row.allowed_addresses),
      floorMode: row.floor_mode,
      attackMs: row.attack_ms,
      hangMs: row.hang_ms,
      priority: row.priority,
      quietBetween: row.quiet_between === 1,
      simultaneousCalls: row.simultaneous_calls,
      // Only whether it changed is kept: the digest hash is compared here and never written.
      secret: row.ha1_sha256,
    };
  }
  if (type === 'alias') {
    const row = await db.selectFrom('aliases').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const holders = await db
      .selectFrom('alias_holders')
      .select('user_id')
      .where('alias_id', '=', id)
      .orderBy('user_id')
      .execute();
    return {
      name: row.name,
      maxHolders: row.max_holders,
      takeRoles: listOrText(row.take_roles),
      holders: holders.map((h) => h.user_id),
    };
  }
  if (type === 'alert') {
    const row = await db.selectFrom('emergency_alerts').selectAll().where('id', '=', id).executeTakeFirst();
    return row
      ? {
          name: row.user_display_name,
          acknowledgedAt: row.acknowledged_at,
          closedAt: row.closed_at,
          outcome: row.outcome,
        }
      : undefined;
  }
  return undefined;
}
