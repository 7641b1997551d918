/**
 * Where the chat list stands (issue 17 point 2): the newest message is in view when the list opens, on every
 * new message while the reader is at the bottom, and after an image above it loads (images arrive after the
 * list first scrolled, and used to leave it short of the end). A reader who scrolled up stays where they
 * are, and `unseen` says that newer messages arrived below (the "New messages" button).
 */
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Closer to the end than this (px) counts as at the bottom. */
const AT_BOTTOM_PX = 80;

export function useChatScroll(listRef: RefObject<HTMLElement | null>, newestKey: string, ready: boolean) {
  const atBottom = useRef(true);
  /** Where the list stood the last time it was at the bottom: a lower position since means the reader scrolled up. */
  const bottomTop = useRef(0);
  const [unseen, setUnseen] = useState(false);
  const lastKey = useRef<string | null>(null);

  const scrollToNewest = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    list.scrollTop = list.scrollHeight;
    atBottom.current = true;
    bottomTop.current = list.scrollTop;
    setUnseen(false);
  }, [listRef]);

  // On open (the first list that is ready) and on each newer message.
  useLayoutEffect(() => {
    if (!ready) return;
    const first = lastKey.current === null;
    if (lastKey.current === newestKey) return;
    lastKey.current = newestKey;
    // Scrolled up just now (its scroll event not handled yet): not at the bottom any more.
    const list = listRef.current;
    if (list && atBottom.current && list.scrollTop < bottomTop.current - 1) atBottom.current = false;
    if (first || atBottom.current) scrollToNewest();
    else setUnseen(true);
  }, [newestKey, ready, scrollToNewest, listRef]);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onScroll = () => {
      if (list.scrollHeight - list.scrollTop - list.clientHeight < AT_BOTTOM_PX) {
        atBottom.current = true;
        bottomTop.current = list.scrollTop;
        setUnseen(false);
        return;
      }
      // Far from the end without having moved up: the list grew below while this event was on its way (an image
      // loaded between our scroll to the end and its event, often on a busy phone). Still reading the end.
      if (atBottom.current && list.scrollTop >= bottomTop.current - 1) {
        list.scrollTop = list.scrollHeight;
        bottomTop.current = list.scrollTop;
        return;
      }
      atBottom.current = false;
    };
    // An image that loads (load does not bubble: captured) makes the list taller: keep the end in view. Unless
    // the reader scrolled up meanwhile: an image scrolled into view can load before the scroll event says so.
    const onLoad = (event: Event) => {
      if (!(event.target instanceof HTMLImageElement) || !atBottom.current) return;
      if (list.scrollTop < bottomTop.current - 1) {
        atBottom.current = false;
        return;
      }
      list.scrollTop = list.scrollHeight;
      bottomTop.current = list.scrollTop;
    };
    list.addEventListener('scroll', onScroll, { passive: true });
    list.addEventListener('load', onLoad, true);
    return () => {
      list.removeEventListener('scroll', onScroll);
      list.removeEventListener('load', onLoad, true);
    };
  }, [listRef]);

  /** Sending a message of one's own brings the end back into view. */
  const stick = useCallback(() => {
    atBottom.current = true;
  }, []);

  return { unseen, scrollToNewest, stick };
}
