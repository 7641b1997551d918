/**
 * The organisation's settings (/settings, administrators): the security policy (issue 38), the time zone
 * (issue 50) and the members' statuses (issue 49).
 */
export { default as SecurityPage } from './SecurityPage.tsx';
