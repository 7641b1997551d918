/**
 * A labelled outlined text input: TextField's look without its select machinery (Select, Menu, Popover),
 * which would weigh on the sign-in bundle. Lazy pages may use TextField freely.
 */
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { ReactNode } from 'react';

export interface TextInputProps extends Omit<OutlinedInputProps, 'label' | 'id'> {
  id: string;
  label: string;
  helperText?: ReactNode;
  /** 'warning' shows the helper text as a hint that does not block (spec section 5's password hints). */
  helperTone?: 'normal' | 'warning';
}

export function TextInput({
  id,
  label,
  helperText,
  helperTone = 'normal',
  error,
  required,
  slotProps,
  ...input
}: TextInputProps) {
  const helperId = `${id}-helper`;
  return (
    <FormControl variant="outlined" fullWidth error={error} required={required}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        {...input}
        slotProps={{
          ...slotProps,
          input: { ...slotProps?.input, 'aria-describedby': helperText ? helperId : undefined },
        }}
      />
      {helperText ? (
        <FormHelperText id={helperId} sx={helperTone === 'warning' && !error ? { color: 'warning.main' } : undefined}>
          {helperText}
        </FormHelperText>
      ) : null}
    </FormControl>
  );
}
