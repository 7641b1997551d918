/** The audit log's page (administrators): what administrators changed, by whom, when and from where. */
export { default as AuditPage } from './AuditPage.tsx';
