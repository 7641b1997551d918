/**
 * "Se connecter avec une clé d'accès" (issue 38): signs in with a passkey, no login typed. Where the browser
 * offers passkeys in the login field's suggestions (conditional mediation), the request waits there from the
 * moment the page opens; the button asks at once (and takes over a waiting request). Success is the answer
 * of a password sign-in: the caller stores it and moves on. The WebAuthn library loads when first needed: the
 * sign-in page ships in the first bundle, which has a size budget.
 */
import KeyIcon from '@mui/icons-material/Key';
import Button from '@mui/material/Button';
import { FinishPasskeySignIn, type SignedInUser, StartPasskeySignIn } from '@talkgroup/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';

export interface PasskeySignInProps {
  onSignedIn: (user: SignedInUser) => void;
  /** A sentence to show (null clears it). */
  onProblem: (sentence: string | null) => void;
}

const webAuthn = () => import('@simplewebauthn/browser');
/** What the button needs to be shown at all (the library's own test, without loading it). */
const hasWebAuthn = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Asks the browser for a passkey and the server for the session; undefined when the person cancelled. */
async function signInWithPasskey(autofill: boolean): Promise<SignedInUser | undefined> {
  const { startAuthentication } = await webAuthn();
  const options = await api(StartPasskeySignIn, {}, { anonymous: true });
  let credential: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    credential = await startAuthentication({ optionsJSON: options.res as never, useBrowserAutofill: autofill });
  } catch (error) {
    // Closed, cancelled, or taken over by another request: nothing to say.
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return undefined;
    throw error;
  }
  const answer = await api(FinishPasskeySignIn, { credential: credential as never }, { anonymous: true });
  return answer.user;
}

export function PasskeySignIn({ onSignedIn, onProblem }: PasskeySignInProps) {
  const { t } = useTranslation('auth');
  const [busy, setBusy] = useState(false);
  const handlers = useRef({ onSignedIn, onProblem });
  handlers.current = { onSignedIn, onProblem };

  // Conditional mediation: the login field's suggestions offer the passkeys while the page is open.
  useEffect(() => {
    let live = true;
    void (async () => {
      if (!hasWebAuthn()) return;
      const { browserSupportsWebAuthnAutofill } = await webAuthn();
      if (!(await browserSupportsWebAuthnAutofill().catch(() => false)) || !live) return;
      try {
        const user = await signInWithPasskey(true);
        if (user && live) handlers.current.onSignedIn(user);
      } catch (error) {
        // Nobody asked for this one: the suggestions simply offer no passkey. The button says what goes wrong.
        console.warn('passkey suggestions unavailable', error);
      }
    })();
    return () => {
      live = false;
      if (hasWebAuthn()) void webAuthn().then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony());
    };
  }, []);

  if (!hasWebAuthn()) return null;
  return (
    <Button
      variant="outlined"
      size="large"
      startIcon={<KeyIcon />}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        onProblem(null);
        try {
          const user = await signInWithPasskey(false);
          if (user) onSignedIn(user);
        } catch (error) {
          onProblem(errorMessage(error, t('passkey.error')));
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('passkey.signIn')}
    </Button>
  );
}
