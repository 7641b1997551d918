/**
 * Issue 70: a row's actions in one named menu ("Actions pour {name}"), each with its name written out, rather than
 * five or six icons named only on hover. An action is written once (RowAction): inside a RowActionsMenu it is a
 * menu item with its icon and name; elsewhere (a table, a map popup) the icon button it always was, named for a
 * screen reader and on hover.
 *
 * The menu stays mounted while closed, so that an action's own dialog or menu lives on once the menu closes; a menu
 * an action opens in turn is placed at the "Actions" button (its item is hidden by then).
 */
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { createContext, type ReactNode, useContext, useMemo, useRef, useState } from 'react';

interface RowActionsContextValue {
  /** The "Actions" button: where a menu an action opens is placed. */
  anchor: () => HTMLElement | null;
  close: () => void;
}

const RowActionsContext = createContext<RowActionsContextValue | null>(null);

export function RowActionsMenu({ label, text, children }: { label: string; text: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const value = useMemo<RowActionsContextValue>(
    () => ({ anchor: () => button.current, close: () => setOpen(false) }),
    [],
  );
  return (
    <>
      <Button
        ref={button}
        size="small"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        endIcon={<ArrowDropDownIcon />}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
        sx={{ minWidth: 0, px: 1 }}
      >
        {text}
      </Button>
      <Menu
        anchorEl={button.current}
        open={open}
        onClose={() => setOpen(false)}
        keepMounted
        onClick={(event) => event.stopPropagation()}
        slotProps={{ list: { 'aria-label': label } }}
      >
        <RowActionsContext.Provider value={value}>{children}</RowActionsContext.Provider>
      </Menu>
    </>
  );
}

export interface RowActionProps {
  icon: ReactNode;
  label: string;
  /** What the action's state says beside its name (a warning), shown in the menu and on hover. */
  note?: string;
  disabled?: boolean;
  color?: 'default' | 'inherit' | 'warning';
  /** Opens a menu of its own: says so to a screen reader. */
  opensMenu?: boolean;
  expanded?: boolean;
  /** `anchor`: where a menu it opens goes (the button, or the row's "Actions" button). */
  onClick: (anchor: HTMLElement) => void;
}

export function RowAction({
  icon,
  label,
  note,
  disabled,
  color = 'default',
  opensMenu,
  expanded,
  onClick,
}: RowActionProps) {
  const menu = useContext(RowActionsContext);
  if (menu)
    return (
      <MenuItem
        disabled={disabled}
        aria-haspopup={opensMenu ? 'menu' : undefined}
        onClick={(event) => {
          const anchor = menu.anchor() ?? event.currentTarget;
          menu.close();
          onClick(anchor);
        }}
      >
        <ListItemIcon sx={{ color: color === 'warning' ? 'warning.main' : undefined }}>{icon}</ListItemIcon>
        <ListItemText
          primary={label}
          secondary={note}
          slotProps={{ secondary: { sx: { color: color === 'warning' ? 'warning.dark' : undefined } } }}
        />
      </MenuItem>
    );
  const named = note ? `${label} (${note})` : label;
  return (
    <Tooltip title={note ? `${label} — ${note}` : label}>
      <span>
        <IconButton
          size="small"
          color={color}
          aria-label={named}
          aria-haspopup={opensMenu ? 'menu' : undefined}
          aria-expanded={opensMenu ? expanded : undefined}
          disabled={disabled}
          onClick={(event) => {
            event.stopPropagation();
            onClick(event.currentTarget);
          }}
        >
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}
