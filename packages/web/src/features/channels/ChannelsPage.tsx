import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../components/PagePlaceholder.tsx';

/** Placeholder until this feature is built: the router lazy-loads this file's default export. */
export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  return <PagePlaceholder title={t('title')} />;
}
