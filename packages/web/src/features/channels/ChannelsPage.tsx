/** /channelsList (spec section 2): the channels table with its toolbar; `?add=1` (the sidebar's add icon) opens Add Channel. */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ChannelDialog } from '../../components/channels/ChannelDialog.tsx';
import { ChannelsTable } from '../../components/channels/ChannelsTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ADD_PARAM } from '../../components/shell/ShellContext.tsx';

export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  const [params, setParams] = useSearchParams();
  const adding = params.has(ADD_PARAM);
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ChannelsTable variant="full" />
      <ChannelDialog
        open={adding}
        onClose={() =>
          setParams(
            (current) => {
              current.delete(ADD_PARAM);
              return current;
            },
            { replace: true },
          )
        }
      />
    </>
  );
}
