/**
 * /reports (issue 50): how a period went, for administrators (every channel) and dispatchers (their channels).
 * The period, time zone and channels above; then one section per measure, each a chart with its table and its
 * exports; the whole report exports as one workbook. getReport computes every figure on the server.
 */
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import { GetReport, GetTimeZone } from '@talkgroup/protocol';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverSentence } from '../../api/client.ts';
import { useChannels } from '../../api/directory.ts';
import { useApiQuery } from '../../api/queries.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type ExportContext, exportMeasure, exportWholeReport } from './exportReport.ts';
import { formatDay } from './format.ts';
import { MeasureSection } from './MeasureSection.tsx';
import { type Measure, reportMeasures } from './measures.ts';
import { dayOf, periodDays, periodQuery, timeZoneNames } from './period.ts';
import { ReportControls, type ReportSettings } from './ReportControls.tsx';

/** The browser's own zone, until the organisation's is known (and if it cannot be). */
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export default function ReportsPage() {
  const { t, i18n } = useTranslation(['reports', 'common']);
  const { t: tReports } = useTranslation('reports');
  const language = i18n.resolvedLanguage ?? 'fr';
  const notify = useNotify();
  const organisation = useApiQuery(GetTimeZone, {}, { staleTime: 60_000 });
  const channelList = useChannels();
  const [settings, setSettings] = useState<Omit<ReportSettings, 'timeZone'> & { timeZone: string | null }>({
    preset: 'days7',
    fromDay: '',
    toDay: '',
    timeZone: null,
    channelIds: null,
  });
  const [exporting, setExporting] = useState(false);

  const orgZone = organisation.data?.res.timeZone;
  const timeZone = settings.timeZone ?? orgZone ?? BROWSER_ZONE;
  const timeZones = useMemo(() => timeZoneNames(orgZone ?? BROWSER_ZONE), [orgZone]);
  const channels = useMemo(
    () =>
      (channelList.data?.res ?? [])
        .map((channel) => ({ id: channel.id, name: channel.name }))
        .sort((a, b) => a.name.localeCompare(b.name, language)),
    [channelList.data, language],
  );
  const today = dayOf(Date.now(), timeZone);
  const days = periodDays(settings, today);
  const presetDays = periodDays(
    { ...settings, preset: settings.preset === 'custom' ? 'days7' : settings.preset },
    today,
  );
  const noChannel = settings.channelIds !== null && settings.channelIds.length === 0;
  const ready = days !== null && !noChannel && (organisation.isSuccess || organisation.isError);
  const body = {
    ...(days ? periodQuery(days, timeZone) : { from: '', to: '' }),
    timeZone,
    ...(settings.channelIds ? { channelIds: settings.channelIds } : {}),
  };
  const report = useApiQuery(GetReport, body, { enabled: ready, placeholderData: keepPreviousData });
  const data = ready ? report.data?.res : undefined;
  const format = { t: tReports, language, timeZone: data?.timeZone ?? timeZone };
  const measures = useMemo(() => (data ? reportMeasures(data, tReports, language) : []), [data, tReports, language]);
  const exportContext = (): ExportContext | null =>
    days ? { ...format, fromDay: days.fromDay, toDay: days.toDay } : null;

  const run = async (work: (context: ExportContext) => Promise<void>) => {
    const context = exportContext();
    if (!context) return;
    setExporting(true);
    try {
      await work(context);
    } catch (error) {
      notify(failureNotice(t, error));
    } finally {
      setExporting(false);
    }
  };
  const onExport = (measure: Measure, fileFormat: 'csv' | 'xlsx') =>
    void run((context) => exportMeasure(measure, fileFormat, context));

  const loading = ready && (report.isPending || report.isFetching);
  return (
    <>
      <PageHeader
        title={t('reports:title')}
        subtitle={
          days
            ? t('reports:subtitle', {
                from: formatDay(days.fromDay, language),
                to: formatDay(days.toDay, language),
                timeZone,
              })
            : undefined
        }
        actions={
          <Button
            variant="contained"
            disabled={!data || exporting || report.isFetching}
            startIcon={exporting ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
            onClick={() => void run((context) => exportWholeReport(measures, context))}
          >
            {t('reports:export.report')}
          </Button>
        }
      />
      <ReportControls
        value={{ ...settings, timeZone }}
        onChange={(change) => setSettings((current) => ({ ...current, ...change }))}
        current={presetDays}
        timeZones={timeZones}
        channels={channels}
        invalid={settings.preset === 'custom' && days === null}
      />
      <Box sx={{ minHeight: 4, mb: 2 }}>{loading ? <LinearProgress aria-label={t('reports:loading')} /> : null}</Box>
      {noChannel ? <Alert severity="info">{t('reports:noChannel')}</Alert> : null}
      {ready && report.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void report.refetch()}>
              {t('common:actions.retry')}
            </Button>
          }
        >
          {t('reports:loadFailed', { reason: serverSentence(report.error) ?? t('common:errors.somethingWrong') })}
        </Alert>
      ) : null}
      {data ? (
        <Box aria-busy={loading} sx={{ opacity: report.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
          {measures.map((measure) => (
            <MeasureSection
              key={measure.id}
              measure={measure}
              report={data}
              format={format}
              onExport={onExport}
              busy={exporting}
            />
          ))}
        </Box>
      ) : null}
    </>
  );
}
