/** The tables of dynamic regrouping and the selected channel (migration 0038, issue 59). */
import type { ColumnType, Generated } from 'kysely';

/** Why a user's /talk is on its selected channel: its own choice, a regroup, its end, or a dispatcher. */
export type SelectionReason = 'self' | 'regroup' | 'regroup_end' | 'dispatcher';

export interface RegroupsTable {
  id: Generated<number>;
  name: string;
  /** The regroup's temporary channel (channels.temporary 1 while open, 2 once ended). */
  channel_id: number;
  created_by_id: number | null;
  created_by_name: string;
  created_at: string;
  expires_at: string;
  /** Null while open. */
  ended_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 'ended' (endRegroup) or 'expired' (its minutes ran out). */
  end_reason: ColumnType<string | null, string | null | undefined, string | null>;
  ended_by_id: ColumnType<number | null, number | null | undefined, number | null>;
  ended_by_name: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RegroupMembersTable {
  regroup_id: number;
  user_id: number;
  /** The channel the member had selected when regrouped; null: none known. */
  previous_channel_id: number | null;
}

export interface SelectedChannelsTable {
  user_id: number;
  channel_id: number;
  reason: SelectionReason;
  by_id: number | null;
  by_name: string | null;
  selected_at: string;
}
