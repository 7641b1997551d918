/**
 * A list an administrator edits on /settings, written once for each such list (the members' statuses, the
 * functions, the SIP gateways): the section with its heading and help, what the list says when it cannot be read or
 * is empty, its rows, the last refusal, and below them what adds a row (ListEditorAdder, or a gateway's dialog).
 * A row edited in place (ListEditorRow) is a group named after it: its fields, then its buttons (the row's own, up
 * and down where the order is the administrator's, delete).
 */
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type FormEvent, Fragment, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';

export interface ListEditorProps<Row> {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  help: string;
  /** Why the rows could not be read, if they could not. */
  loadError: unknown;
  /** Said of a load error the server gave no sentence for (common's "something went wrong" unless told). */
  loadFailed?: string;
  /** The rows, undefined while they load (the list is not said empty then). */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => Key;
  /** A row: a ListEditorRow, or its own `li` in a named list (listLabel). */
  renderRow: (row: Row, index: number) => ReactNode;
  /**
   * Given, the rows are a list so named, drawn once there is a row (rows shown, not edited in place: a gateway's);
   * otherwise they are groups edited in place, one under the other.
   */
  listLabel?: string;
  /** Said when there is no row. */
  empty: string;
  /** The last refusal, in the server's words, said below the rows. */
  failure?: string;
  /** What adds a row, below the list: a ListEditorAdder, or a button that opens a dialog. */
  adder: ReactNode;
  /** What the list opens (its dialogs). */
  children?: ReactNode;
}

export function ListEditor<Row>(props: ListEditorProps<Row>) {
  const { t } = useTranslation('common');
  const rows = (props.rows ?? []).map((row, index) => (
    <Fragment key={props.rowKey(row)}>{props.renderRow(row, index)}</Fragment>
  ));
  return (
    <Paper variant="outlined" component="section" aria-labelledby={props.id} sx={{ p: 3, mt: 3 }}>
      <Typography id={props.id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {props.title}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {props.help}
      </Typography>
      {props.loadError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(props.loadError, props.loadFailed ?? t('errors.somethingWrong'))}
        </Alert>
      ) : null}
      {props.rows?.length === 0 ? (
        <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
          {props.empty}
        </Typography>
      ) : null}
      {props.listLabel === undefined ? (
        <Box sx={{ display: 'grid', gap: 1.5 }}>{rows}</Box>
      ) : rows.length > 0 ? (
        <Box
          component="ul"
          aria-label={props.listLabel}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
        >
          {rows}
        </Box>
      ) : null}
      {props.failure ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {props.failure}
        </Alert>
      ) : null}
      {props.adder}
      {props.children}
    </Paper>
  );
}

/** The fields and buttons that add a row, side by side; a form when `onAdd` is given (Enter in a field adds). */
export function ListEditorAdder({ onAdd, children }: { onAdd?: () => void; children: ReactNode }) {
  return (
    <Box
      component={onAdd ? 'form' : 'div'}
      onSubmit={
        onAdd
          ? (event: FormEvent) => {
              event.preventDefault();
              onAdd();
            }
          : undefined
      }
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2, alignItems: 'center' }}
    >
      {children}
    </Box>
  );
}

/** A button of a row, named for a screen reader after the row ("Supprimer En pause"). */
export interface RowButton {
  label: string;
  onClick: () => void;
  disabled?: boolean;
}

function RowIconButton({ button, children }: { button: RowButton; children: ReactNode }) {
  return (
    <IconButton aria-label={button.label} disabled={button.disabled} onClick={button.onClick}>
      {children}
    </IconButton>
  );
}

export function ListEditorRow(props: {
  /** The row's group's name ("Statut Disponible"). */
  label: string;
  /** A colour on the row's left edge (a status's own). */
  accent?: string;
  /** The row's fields. */
  children: ReactNode;
  /** The row's own buttons, before its icons (a function's "Save"). */
  actions?: ReactNode;
  /** Where the administrator orders the list. */
  moveUp?: RowButton;
  moveDown?: RowButton;
  remove: RowButton;
}) {
  const { moveUp, moveDown } = props;
  return (
    <Box
      role="group"
      aria-label={props.label}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        p: 1.5,
        borderRadius: 1,
        border: '1px solid',
        borderColor: 'divider',
        ...(props.accent ? { borderLeft: `6px solid ${props.accent}` } : {}),
      }}
    >
      {props.children}
      <Box sx={{ display: 'flex', ml: 'auto', gap: 1 }}>
        {props.actions}
        <Box sx={{ display: 'flex' }}>
          {moveUp ? (
            <RowIconButton button={moveUp}>
              <ArrowUpwardIcon />
            </RowIconButton>
          ) : null}
          {moveDown ? (
            <RowIconButton button={moveDown}>
              <ArrowDownwardIcon />
            </RowIconButton>
          ) : null}
          <RowIconButton button={props.remove}>
            <DeleteIcon />
          </RowIconButton>
        </Box>
      </Box>
    </Box>
  );
}
