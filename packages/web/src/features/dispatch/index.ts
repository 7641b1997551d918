/** The dispatch console (issue 27): /dispatch, many channels at once. */
export { default as DispatchPage } from './DispatchPage.tsx';
