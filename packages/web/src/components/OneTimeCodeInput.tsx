/**
 * The field of a code from an authenticator app, or of a recovery code (sign-in, a single sign-on's local step,
 * "confirm it's you"): the browser may fill it (`one-time-code`), no spell check nor capitals, 40 characters at most
 * (recovery codes carry dashes and spaces, which the server ignores).
 */
import { TextInput } from './TextInput.tsx';

export interface OneTimeCodeInputProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  helperText?: string;
}

export function OneTimeCodeInput({ id, name, label, value, onValueChange, helperText }: OneTimeCodeInputProps) {
  return (
    <TextInput
      id={id}
      name={name}
      label={label}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      autoComplete="one-time-code"
      autoFocus
      required
      slotProps={{ input: { spellCheck: false, autoCapitalize: 'none', maxLength: 40 } }}
      {...(helperText ? { helperText } : {})}
    />
  );
}
