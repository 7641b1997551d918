/** The hook alone, for components that need no more (it lives with the pure sentence in activitySentence.ts). */
export { type ActivitySentenceOptions, useActivitySentence } from './activitySentence.ts';
