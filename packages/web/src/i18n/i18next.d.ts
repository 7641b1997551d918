/** Typed keys: t('nav.dashboard') is checked against the English catalogues (every language has the same keys). */
import 'i18next';
import type account from './locales/en/account.json';
import type activities from './locales/en/activities.json';
import type activity from './locales/en/activity.json';
import type audit from './locales/en/audit.json';
import type auth from './locales/en/auth.json';
import type calls from './locales/en/calls.json';
import type channels from './locales/en/channels.json';
import type common from './locales/en/common.json';
import type dashboard from './locales/en/dashboard.json';
import type dispatch from './locales/en/dispatch.json';
import type dispatchRequest from './locales/en/dispatchRequest.json';
import type emergency from './locales/en/emergency.json';
import type reports from './locales/en/reports.json';
import type room from './locales/en/room.json';
import type safety from './locales/en/safety.json';
import type settings from './locales/en/settings.json';
import type talk from './locales/en/talk.json';
import type tracking from './locales/en/tracking.json';
import type users from './locales/en/users.json';
import type video from './locales/en/video.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      auth: typeof auth;
      dashboard: typeof dashboard;
      users: typeof users;
      channels: typeof channels;
      activities: typeof activities;
      activity: typeof activity;
      room: typeof room;
      talk: typeof talk;
      emergency: typeof emergency;
      audit: typeof audit;
      tracking: typeof tracking;
      dispatch: typeof dispatch;
      dispatchRequest: typeof dispatchRequest;
      calls: typeof calls;
      account: typeof account;
      settings: typeof settings;
      reports: typeof reports;
      safety: typeof safety;
      video: typeof video;
    };
  }
}
