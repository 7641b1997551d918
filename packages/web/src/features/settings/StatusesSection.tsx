/**
 * /settings, "Statuts" (issue 49): the organisation's members' statuses, edited as a list (a label in each
 * language and a colour per row; move up, move down, delete; add) and saved at once with setStatuses (audited).
 * A row keeps its status's id, so that members who have it keep it; a deleted row takes it from them.
 */
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { GetMemberStatuses, ListStatuses, SetStatuses, STATUSES_MAX, type Status } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation } from '../../api/queries.ts';
import { statusLabel, useStatuses } from '../../api/statuses.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { ListEditor, ListEditorAdder, ListEditorRow } from './ListEditor.tsx';

interface Row {
  /** The row's React key (a new row has no id yet). */
  key: string;
  id?: number;
  label: Status['label'];
  color: string;
}

let newRows = 0;
const rowsOf = (statuses: Status[]): Row[] =>
  statuses.map((status) => ({ key: `status-${status.id}`, id: status.id, label: status.label, color: status.color }));

const LANGUAGE_FIELDS = [
  { language: 'fr', name: 'labelFr' },
  { language: 'en', name: 'labelEn' },
  { language: 'de', name: 'labelDe' },
] as const;

export function StatusesSection() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const notify = useNotify();
  const statuses = useStatuses();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [failure, setFailure] = useState<string>();
  // After a refused save, the empty labels are marked (the server's sentence names them too).
  const [refused, setRefused] = useState(false);
  // The list as the server has it, until the administrator changes something.
  useEffect(() => {
    if (statuses.data && rows === null) setRows(rowsOf(statuses.data.res));
  }, [statuses.data, rows]);
  const save = useApiMutation(SetStatuses, {
    onSuccess: (answer) => {
      client.setQueryData(callKey(ListStatuses, {}), { success: true, res: answer.res });
      void client.invalidateQueries({ queryKey: callKey(GetMemberStatuses) });
      setRows(rowsOf(answer.res));
      setFailure(undefined);
      setRefused(false);
      notify({ severity: 'success', message: t('common:server.statuses_saved') });
    },
    onError: (error) => {
      setFailure(errorMessage(error, t('settings:statuses.failed')));
      setRefused(true);
    },
  });

  const shown = rows ?? [];
  const change = (key: string, patch: (row: Row) => Row) =>
    setRows(shown.map((row) => (row.key === key ? patch(row) : row)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...shown];
    const [row] = next.splice(index, 1);
    if (row) next.splice(index + by, 0, row);
    setRows(next);
  };
  const nameOf = (row: Row) =>
    statusLabel({ id: row.id ?? 0, label: row.label, color: row.color }, i18n.resolvedLanguage).trim() ||
    t('settings:statuses.newStatus');

  return (
    <ListEditor
      id="settings-statuses"
      title={t('settings:statuses.title')}
      help={t('settings:statuses.help')}
      loadError={statuses.error}
      rows={rows ?? undefined}
      rowKey={(row) => row.key}
      empty={t('settings:statuses.empty')}
      failure={failure}
      renderRow={(row, index) => {
        const name = nameOf(row);
        return (
          <ListEditorRow
            label={t('settings:statuses.row', { label: name })}
            accent={row.color}
            moveUp={{
              label: t('settings:statuses.moveUp', { label: name }),
              disabled: index === 0,
              onClick: () => move(index, -1),
            }}
            moveDown={{
              label: t('settings:statuses.moveDown', { label: name }),
              disabled: index === shown.length - 1,
              onClick: () => move(index, 1),
            }}
            remove={{
              label: t('settings:statuses.remove', { label: name }),
              onClick: () => setRows(shown.filter((r) => r.key !== row.key)),
            }}
          >
            {LANGUAGE_FIELDS.map(({ language, name: field }) => (
              <TextField
                key={language}
                size="small"
                label={t(`settings:statuses.${field}`)}
                value={row.label[language]}
                error={refused && row.label[language].trim() === ''}
                onChange={(event) =>
                  change(row.key, (r) => ({ ...r, label: { ...r.label, [language]: event.target.value } }))
                }
                slotProps={{ htmlInput: { maxLength: 40, lang: language } }}
                sx={{ flex: '1 1 140px', minWidth: 0 }}
              />
            ))}
            <TextField
              size="small"
              type="color"
              label={t('settings:statuses.color')}
              value={row.color}
              onChange={(event) => change(row.key, (r) => ({ ...r, color: event.target.value }))}
              sx={{ width: 88 }}
            />
          </ListEditorRow>
        );
      }}
      adder={
        <ListEditorAdder>
          <Button
            startIcon={<AddIcon />}
            disabled={rows === null || shown.length >= STATUSES_MAX}
            onClick={() => {
              newRows += 1;
              setRows([...shown, { key: `new-${newRows}`, label: { fr: '', en: '', de: '' }, color: '#607d8b' }]);
            }}
          >
            {t('settings:statuses.add')}
          </Button>
          <Button
            variant="contained"
            disabled={rows === null || save.isPending}
            onClick={() => {
              setFailure(undefined);
              save.mutate({
                statuses: shown.map((row) => ({
                  ...(row.id !== undefined ? { id: row.id } : {}),
                  label: row.label,
                  color: row.color,
                })),
              });
            }}
          >
            {t('settings:statuses.save')}
          </Button>
          {shown.length >= STATUSES_MAX ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('settings:statuses.max', { count: STATUSES_MAX })}
            </Typography>
          ) : null}
        </ListEditorAdder>
      }
    />
  );
}
