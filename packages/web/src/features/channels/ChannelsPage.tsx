/** /channelsList (spec section 2): the channels table with its toolbar; `?add=1` (the sidebar's add icon) opens Add Channel. */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAddRequest } from '../../components/shell/ShellContext.tsx';
import { ChannelDialog } from './ChannelDialog.tsx';
import { ChannelsTable } from './ChannelsTable.tsx';

export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  const { adding, closeAdd } = useAddRequest();
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ChannelsTable variant="full" />
      <ChannelDialog open={adding} onClose={closeAdd} />
    </>
  );
}
