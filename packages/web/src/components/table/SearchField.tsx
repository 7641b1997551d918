/** The search box of a table's toolbar. */
import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState, useTransition } from 'react';

export interface SearchFieldProps {
  /** The text the box starts with. */
  initialValue?: string;
  onChange: (value: string) => void;
  /** Accessible name of the input. */
  label: string;
  placeholder: string;
  clearLabel: string;
}

/**
 * The box owns what is typed and hands it to the table in a transition (issue 18): a keystroke paints the box at
 * once, and the table, whose rows the text filters, follows at a lower priority with a single render of its own.
 */
export function SearchField({ initialValue = '', onChange, label, placeholder, clearLabel }: SearchFieldProps) {
  const [text, setText] = useState(initialValue);
  const [, startTransition] = useTransition();
  const change = (next: string) => {
    setText(next);
    startTransition(() => onChange(next));
  };
  return (
    <TextField
      size="small"
      type="search"
      value={text}
      onChange={(event) => change(event.target.value)}
      placeholder={placeholder}
      sx={{ width: { xs: '100%', sm: 260 }, '& input[type=search]::-webkit-search-cancel-button': { display: 'none' } }}
      slotProps={{
        htmlInput: { 'aria-label': label },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
          endAdornment: text ? (
            <InputAdornment position="end">
              <IconButton size="small" aria-label={clearLabel} onClick={() => change('')} edge="end">
                <ClearIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : null,
        },
      }}
    />
  );
}
