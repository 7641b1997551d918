/** The sentence of an activity ("Alice joined Ops"), in text or as a component: the log, the dashboard, the room, /talk, /dispatch and the users table all write activities the same way. */
export { ActivitySentence } from './ActivitySentence.tsx';
export {
  type ActivityNames,
  type ActivitySentenceOptions,
  type ActivityT,
  activityNames,
  activitySentence,
  useActivitySentence,
} from './activitySentence.ts';
