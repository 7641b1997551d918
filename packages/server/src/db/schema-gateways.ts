/** The SIP gateways' tables (issue 51). Part of schema.ts's Database. */
import type { ColumnType, Generated } from 'kysely';

/** A SIP gateway (migration 0033): its credentials as digest hashes only, its floor mode, the account it talks as. */
export interface GatewaysTable {
  id: Generated<number>;
  name: string;
  login: string;
  /** The realm the hashes were made for (SIP_REALM then). */
  realm: string;
  /** H(login:realm:secret), hex, in MD5 and SHA-256 (RFC 7616's HA1). */
  ha1_md5: string;
  ha1_sha256: string;
  user_id: number;
  floor_mode: string;
  attack_ms: number;
  hang_ms: number;
  priority: string;
  quiet_between: ColumnType<number, number | undefined, number>;
  /** JSON list of addresses and CIDR blocks; `[]`: any. */
  allowed_addresses: ColumnType<string, string | undefined, string>;
  /** The calls it may hold at once (migration 0034); null: one per channel it may enter. */
  simultaneous_calls: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
}

export interface GatewayChannelsTable {
  gateway_id: number;
  channel_id: number;
}

/** A gateway's call now (migration 0033), held by one instance. */
export interface GatewayCallsTable {
  call_id: string;
  gateway_id: number;
  user_id: number;
  channel_id: number;
  instance_id: string;
  address: string;
  transport: string;
  codec: string;
  started_at: string;
  talking: ColumnType<number, number | undefined, number>;
  hangup_requested: ColumnType<number, number | undefined, number>;
}
