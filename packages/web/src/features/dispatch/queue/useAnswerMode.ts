/** How this desk answers a request it takes ("Answer by"), kept on this device: a private call by default. */
import type { DispatchAnswer } from '@talkgroup/protocol';
import { useCallback, useState } from 'react';

const ANSWER_KEY = 'talkgroup.dispatchAnswer';

function stored(): DispatchAnswer {
  try {
    return localStorage.getItem(ANSWER_KEY) === 'channel' ? 'channel' : 'private';
  } catch {
    return 'private';
  }
}

export function useAnswerMode(): [DispatchAnswer, (answer: DispatchAnswer) => void] {
  const [answer, setAnswer] = useState<DispatchAnswer>(stored);
  const choose = useCallback((next: DispatchAnswer) => {
    setAnswer(next);
    try {
      localStorage.setItem(ANSWER_KEY, next);
    } catch {
      // storage disabled: the choice lasts until the page reloads
    }
  }, []);
  return [answer, choose];
}
