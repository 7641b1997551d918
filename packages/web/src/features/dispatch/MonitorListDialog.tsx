/** Which channels the desk monitors: every channel it may read, searched and ticked; saved on the server. */
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { foldText, MONITOR_LIST_MAX } from '@talkgroup/protocol';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../../components/table/SearchField.tsx';

export interface MonitorListDialogProps {
  open: boolean;
  channels: Array<{ id: number; name: string }>;
  monitored: number[];
  onClose: () => void;
  onSave: (channelIds: number[]) => void;
}

export function MonitorListDialog({ open, channels, monitored, onClose, onSave }: MonitorListDialogProps) {
  const { t } = useTranslation('dispatch');
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<number[]>(monitored);
  const shown = useMemo(() => {
    const folded = foldText(query.trim());
    return channels.filter((channel) => foldText(channel.name).includes(folded));
  }, [channels, query]);
  const full = picked.length >= MONITOR_LIST_MAX;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="monitor-list-title"
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onEnter: () => setPicked(monitored) } }}
    >
      <DialogTitle id="monitor-list-title">{t('monitor.title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <SearchField
          onChange={setQuery}
          label={t('monitor.search')}
          placeholder={t('monitor.searchPlaceholder')}
          clearLabel={t('monitor.clearSearch')}
        />
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('monitor.count', { count: picked.length, max: MONITOR_LIST_MAX })}
        </Typography>
        {shown.map((channel) => {
          const on = picked.includes(channel.id);
          return (
            <FormControlLabel
              key={channel.id}
              label={channel.name}
              control={
                <Checkbox
                  checked={on}
                  disabled={!on && full}
                  onChange={(event) =>
                    setPicked((current) =>
                      event.target.checked ? [...current, channel.id] : current.filter((id) => id !== channel.id),
                    )
                  }
                  slotProps={{ input: { 'aria-label': t('monitor.toggle', { channel: channel.name }) } }}
                />
              }
            />
          );
        })}
        {shown.length === 0 ? <Typography sx={{ color: 'text.secondary' }}>{t('monitor.none')}</Typography> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('monitor.cancel')}</Button>
        <Button variant="contained" onClick={() => onSave(picked)}>
          {t('monitor.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
