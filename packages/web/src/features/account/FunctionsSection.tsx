/**
 * "Mes fonctions" on /account (issue 59): every functional alias with who holds it, "Prendre" for those the
 * signed-in user's role may take (issue 69: each alias's `takeRoles`) and "Rendre" for those it holds (a dispatcher
 * on the console takes "Chef de quart" here; a member may also use /talk's menu). A refusal (held by as many as it
 * allows) shows the server's sentence.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAliases, useReleaseAlias, useTakeAlias } from '../../api/aliases.ts';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { AccountSection } from './AccountPage.tsx';

export function FunctionsSection() {
  const { t } = useTranslation('account');
  const me = useSession()?.user;
  const userId = me?.id;
  const aliases = useAliases({ enabled: userId !== undefined });
  const take = useTakeAlias();
  const release = useReleaseAlias();
  const [failure, setFailure] = useState<string>();
  const list = aliases.data?.res ?? [];
  if (userId === undefined || list.length === 0) return null;
  const failed = (error: unknown) => setFailure(errorMessage(error, t('functions.failed')));
  return (
    <AccountSection id="functions" title={t('functions.title')}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('functions.explain')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {list.map((alias) => {
          const holds = alias.holders.some((holder) => holder.userId === userId);
          const others = alias.holders.filter((holder) => holder.userId !== userId).map((holder) => holder.name);
          const mayTake = me?.role !== undefined && alias.takeRoles.includes(me.role);
          return (
            <Box component="li" key={alias.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{alias.name}</Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {holds ? t('functions.yours') : others.length > 0 ? others.join(', ') : t('functions.free')}
                </Typography>
              </Box>
              {holds || mayTake ? (
                <Button
                  variant={holds ? 'outlined' : 'contained'}
                  size="small"
                  aria-label={t(holds ? 'functions.release' : 'functions.take', { name: alias.name })}
                  disabled={take.isPending || release.isPending}
                  onClick={() => {
                    setFailure(undefined);
                    if (holds) release.mutate({ aliasId: alias.id }, { onError: failed });
                    else take.mutate({ aliasId: alias.id }, { onError: failed });
                  }}
                >
                  {t(holds ? 'functions.releaseShort' : 'functions.takeShort')}
                </Button>
              ) : null}
            </Box>
          );
        })}
      </Box>
      {failure ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      ) : null}
    </AccountSection>
  );
}
