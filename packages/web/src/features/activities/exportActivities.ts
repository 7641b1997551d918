/** The filtered activity log as spreadsheet rows (issue 17 point 10): every page of the filter, latest first. */
import { type Activity, type BodyOf, GetAllActivities } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';
import { api } from '../../api/client.ts';
import { type ActivityT, activitySentence } from '../../engines/activities/activitySentence.ts';
import type { ExportRows } from '../../engines/import-export/index.ts';
import { formatDate } from '../../i18n/dates.ts';

/** The most a call gives; and the most an export holds (a spreadsheet of more is no longer read). */
const PAGE = 1000;
const MAX_ROWS = 100_000;

export async function activityRows(
  filter: Partial<BodyOf<typeof GetAllActivities>>,
  t: TFunction<'activities'>,
  tActivity: ActivityT,
  language: string | undefined,
): Promise<ExportRows> {
  const activities: Activity[] = [];
  for (let start = 0; start < MAX_ROWS; start += PAGE) {
    const { res } = await api(GetAllActivities, { ...filter, start, limit: PAGE });
    activities.push(...res.activities);
    if (res.activities.length < PAGE || activities.length >= res.totalRecords) break;
  }
  const columns = [
    { header: t('export.date'), key: 'date', width: 20 },
    { header: t('export.type'), key: 'type', width: 22 },
    { header: t('export.member'), key: 'member', width: 26 },
    { header: t('export.channel'), key: 'channel', width: 24 },
    { header: t('export.sentence'), key: 'sentence', width: 60 },
  ];
  const rows = activities.map((activity) => ({
    date: formatDate(activity.createdAt, 'yyyy-MM-dd HH:mm', language),
    type: t(`typeNames.${activity.type}` as never) as string,
    member: activity.user?.display_name ?? '',
    channel: activity.channel?.name ?? '',
    sentence: activitySentence(tActivity, activity),
  }));
  return { columns, rows };
}
