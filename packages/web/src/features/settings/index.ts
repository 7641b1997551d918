/**
 * The organisation's settings (/settings, administrators): the security policy (issue 38), the time zone
 * (issue 50), the members' statuses (issue 49) and the SIP gateways (issue 51).
 */
export { default as SecurityPage } from './SecurityPage.tsx';
