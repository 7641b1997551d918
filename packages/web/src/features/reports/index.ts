/** The reports page (issue 50): a period's talk time, busy hours, SOS and queue times, missed transmissions and peaks, as charts, tables and spreadsheets. */
export { default as ReportsPage } from './ReportsPage.tsx';
