/** The activity log: its page, the timeline and the paged, live log (the sentence of an activity is engines/activities'). */
export { default as ActivitiesPage } from './ActivitiesPage.tsx';
export { ActivityTimeline, type ActivityTimelineProps } from './ActivityTimeline.tsx';
export { useActivityPage } from './useActivityPage.ts';
