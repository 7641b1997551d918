/** The organisation's settings (/settings, administrators): the security policy (issue 38) and the members' statuses (issue 49). */
export { default as SecurityPage } from './SecurityPage.tsx';
