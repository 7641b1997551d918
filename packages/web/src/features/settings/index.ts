/** The organisation's settings (/settings, administrators): the security policy (issue 38). */
export { default as SecurityPage } from './SecurityPage.tsx';
