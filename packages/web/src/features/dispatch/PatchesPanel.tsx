/**
 * Patches (with the media server): the checked channels joined so that what is said in one is heard in the
 * others, until unpatched. Without a media server the server says why (409), shown here as it is.
 */
import HubIcon from '@mui/icons-material/HubOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { GetPatches, type Patch, PatchChannels, UnpatchChannels } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation } from '../../api/queries.ts';

export interface PatchesPanelProps {
  patches: Patch[];
  /** The checked tiles' channels: what "Patch" joins. */
  checked: Array<{ id: number; name: string }>;
}

export function PatchesPanel({ patches, checked }: PatchesPanelProps) {
  const { t } = useTranslation('dispatch');
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: callKey(GetPatches) });
  const patch = useApiMutation(PatchChannels, { onSuccess: refresh });
  const unpatch = useApiMutation(UnpatchChannels, { onSuccess: refresh });
  const error = patch.error ?? unpatch.error;
  return (
    <Paper component="section" aria-labelledby="patches-title" variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="patches-title" component="h2" variant="h6" sx={{ flex: 1 }}>
          {t('patches.title')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<HubIcon />}
          disabled={checked.length < 2 || patch.isPending}
          onClick={() => patch.mutate({ channelIds: checked.map((channel) => channel.id) })}
        >
          {t('patches.patch', { count: checked.length })}
        </Button>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {t('patches.help')}
      </Typography>
      {error ? (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {errorMessage(error, t('patches.failed'))}
        </Alert>
      ) : null}
      {patches.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('patches.empty')}</Typography>
      ) : (
        <List dense>
          {patches.map((item) => {
            const names = item.channels.map((channel) => channel.name).join(' + ');
            return (
              <ListItem
                key={item.patchId}
                disableGutters
                secondaryAction={
                  <Button
                    size="small"
                    disabled={unpatch.isPending}
                    onClick={() => unpatch.mutate({ patchId: item.patchId })}
                    aria-label={t('patches.unpatch', { channels: names })}
                  >
                    {t('patches.unpatchShort')}
                  </Button>
                }
              >
                <ListItemText primary={names} secondary={t('patches.by', { name: item.createdBy.display_name })} />
              </ListItem>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
