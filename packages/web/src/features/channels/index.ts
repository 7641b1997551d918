/** The channels: the /channelsList page, the channels table (full or dashboard) and the Add Channel dialog. */
export { ChannelDialog, type ChannelDialogProps } from './ChannelDialog.tsx';
export { default as ChannelsPage } from './ChannelsPage.tsx';
export { ChannelsTable, type ChannelsTableProps } from './ChannelsTable.tsx';
