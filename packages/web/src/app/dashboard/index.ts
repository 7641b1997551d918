/** The administrator's /dashboard: figures, trends, busiest channels, last activities and the two tables. */
export { default as DashboardPage } from './DashboardPage.tsx';
