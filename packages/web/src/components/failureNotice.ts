/** Spec section 8's failure trio: 'Oops...', 'Something went wrong!', 'Please try again' (+ the server's reason). */
import { serverSentence } from '../api/client.ts';
import type { Notice } from './Notifier.tsx';

export function failureNotice(t: (key: any) => string, error?: unknown): Notice {
  const sentence = serverSentence(error);
  const reason = sentence ? ` (${sentence})` : '';
  return {
    severity: 'error',
    title: t('common:errors.oops'),
    message: `${t('common:errors.somethingWrong')} ${t('common:errors.tryAgain')}${reason}`,
  };
}
