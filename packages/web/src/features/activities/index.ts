/** The activity log: its page, the timeline, the sentence of an activity and the paged, live log. */
export { default as ActivitiesPage } from './ActivitiesPage.tsx';
export { ActivitySentence } from './ActivitySentence.tsx';
export { ActivityTimeline, type ActivityTimelineProps } from './ActivityTimeline.tsx';
export {
  type ActivityNames,
  type ActivitySentenceOptions,
  type ActivityT,
  activityNames,
  activitySentence,
  useActivitySentence,
} from './activitySentence.ts';
export { useActivityPage } from './useActivityPage.ts';
