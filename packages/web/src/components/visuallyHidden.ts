/**
 * Read by screen readers, not shown: the usual clip of an element to one pixel. The sizes are written in pixels:
 * in MUI's `sx` a bare `width: 1` means 100 %, and a "hidden" paragraph one screen wide made the room page scroll
 * sideways on a phone (423 px in a 390 px window).
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
