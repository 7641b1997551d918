/**
 * Members' statuses on the pages that show members (issue 49): "Statut de {name}", a dispatcher's or an
 * administrator's menu to set a member's status. The data (useStatuses, useMemberStatuses) is api/statuses.ts's
 * and the chip ("Sur place · 12 min") components/StatusChip's.
 */
export { MemberStatusButton } from './MemberStatusButton.tsx';
