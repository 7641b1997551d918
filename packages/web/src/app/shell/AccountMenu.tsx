/** The top bar's account button: the signed-in name, and a menu with the language choice and Logout. */
import CheckIcon from '@mui/icons-material/Check';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import LogoutIcon from '@mui/icons-material/Logout';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../api/session.ts';
import { LANGUAGES, toLanguage } from '../../i18n/languages.ts';
import { consoleColors } from '../theme.ts';
import { LogoutDialog } from './LogoutDialog.tsx';

function initials(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
}

export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const user = useSession()?.user;
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const language = toLanguage(i18n.resolvedLanguage);
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.email || '';
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        color="inherit"
        // The visible name first, then what the button is (axe: the visible text is in the accessible name).
        aria-label={name ? `${name}, ${t('account.menu')}` : t('account.menu')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        endIcon={<ExpandMoreIcon />}
        sx={{ borderRadius: 99, pl: 0.75, pr: 1.5, minWidth: 0, maxWidth: { xs: 200, sm: 320 } }}
      >
        {/* The initials are drawn by CSS: not text of the button, so its visible text is the name alone. */}
        <Avatar
          aria-hidden
          sx={{
            width: 32,
            height: 32,
            mr: 1,
            bgcolor: consoleColors.amber,
            color: consoleColors.navy,
            fontSize: 14,
            fontWeight: 700,
          }}
        >
          <Box
            component="span"
            data-initials={initials(user?.firstName ?? '', user?.lastName ?? '')}
            sx={{ '&::before': { content: 'attr(data-initials)' } }}
          />
        </Avatar>
        <Box
          component="span"
          data-testid="signed-in-name"
          sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontWeight: 600 }}
        >
          {name}
        </Box>
      </Button>

      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240, mt: 1 } } }}
      >
        <Box sx={{ px: 2, pt: 1, pb: 1.5 }} aria-hidden>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('account.signedInAs')}
          </Typography>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          {user?.email ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {user.email}
            </Typography>
          ) : null}
        </Box>
        <Divider />
        <ListSubheader role="presentation" sx={{ lineHeight: '36px' }}>
          {t('account.language')}
        </ListSubheader>
        {LANGUAGES.map((option) => (
          <MenuItem
            key={option.code}
            role="menuitemradio"
            aria-checked={option.code === language}
            selected={option.code === language}
            lang={option.code}
            onClick={() => {
              void i18n.changeLanguage(option.code);
              close();
            }}
          >
            <ListItemIcon>{option.code === language ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
            <ListItemText>{option.name}</ListItemText>
            <Typography variant="body2" sx={{ color: 'text.secondary', ml: 2 }}>
              {option.short}
            </Typography>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem component={RouterLink} to="/account" onClick={close}>
          <ListItemIcon>
            <ManageAccountsIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('account.myAccount')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            setConfirmingLogout(true);
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('account.logout')}</ListItemText>
        </MenuItem>
      </Menu>

      <LogoutDialog open={confirmingLogout} onClose={() => setConfirmingLogout(false)} />
    </>
  );
}
