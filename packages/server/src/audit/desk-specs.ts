/**
 * How the calls of the desk are audited (issues 59 and 69), beside auditing.ts's table: regroups (the channel they
 * made) and a member's channel switched by a dispatcher; functional aliases, who an administrator or a dispatcher
 * gave one to (or took it back from), and a take or a give back by the holder itself (its calls ring in the
 * alias's name).
 */
import {
  AssignAlias,
  type Call,
  CreateAlias,
  CreateRegroup,
  DeleteAlias,
  EndRegroup,
  ReleaseAlias,
  SelectChannelFor,
  TakeAlias,
  UpdateAlias,
} from '@talkgroup/protocol';
import type { AuditSpec } from './spec.ts';

function regroupSpecs(): Array<[Call, AuditSpec]> {
  return [
    [
      CreateRegroup,
      {
        action: 'regroup.create',
        targetType: 'channel',
        targetId: (_b, answer) => answer?.channelId,
        summary: (b, answer) => ({
          regroupId: answer.regroupId,
          name: b.name,
          members: answer.res.members.map((member: { userId: number }) => member.userId),
          minutes: b.minutes,
        }),
      },
    ],
    [
      EndRegroup,
      {
        action: 'regroup.end',
        targetType: 'channel',
        targetId: (_b, answer) => answer?.res?.channelId,
        summary: (b, answer) => ({ regroupId: b.regroupId, name: answer.res.name }),
      },
    ],
    [
      SelectChannelFor,
      {
        action: 'user.select_channel',
        targetType: 'user',
        targetId: (b) => b.userId,
        summary: (b) => ({ channelId: b.channelId }),
      },
    ],
  ];
}

const aliasId = (body: { aliasId: unknown }) => Number(body.aliasId);

export function deskSpecs(): Array<[Call, AuditSpec]> {
  return [
    [CreateAlias, { action: 'alias.create', targetType: 'alias', targetId: (_b, answer) => answer?.res?.id }],
    [UpdateAlias, { action: 'alias.update', targetType: 'alias', targetId: aliasId }],
    [DeleteAlias, { action: 'alias.delete', targetType: 'alias', targetId: aliasId }],
    [AssignAlias, { action: 'alias.assign', targetType: 'alias', targetId: aliasId }],
    [TakeAlias, { action: 'alias.take', targetType: 'alias', targetId: aliasId }],
    [ReleaseAlias, { action: 'alias.release', targetType: 'alias', targetId: aliasId }],
    ...regroupSpecs(),
  ];
}
