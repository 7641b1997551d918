/** /channelsList (spec section 2): the channels table with its toolbar; `?add=1` (the sidebar's add icon) opens Add Channel. */
import { useTranslation } from 'react-i18next';
import { useMay } from '../../api/session.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAddRequest } from '../../components/shell/ShellContext.tsx';
import { ChannelDialog } from './ChannelDialog.tsx';
import { ChannelsTable } from './ChannelsTable.tsx';

export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  const { adding, closeAdd } = useAddRequest();
  const manage = useMay().may('channels.manage');
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ChannelsTable variant="full" />
      {manage ? <ChannelDialog open={adding} onClose={closeAdd} /> : null}
    </>
  );
}
