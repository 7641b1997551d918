/** The members' app (/talk): the frame, the channel list and a channel's page. */
export { default as TalkChannelPage } from './TalkChannelPage.tsx';
export { default as TalkHomePage } from './TalkHomePage.tsx';
export { TalkLayout, type TalkShellContext } from './TalkLayout.tsx';
