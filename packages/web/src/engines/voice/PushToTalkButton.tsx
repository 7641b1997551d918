/**
 * The press-to-talk button (spec sections 2 and 4): pressing (mouse, touch, pen) turns the mic on;
 * releasing, leaving the button or cancelling the touch turns it off. Holding the space bar does the same
 * anywhere on the page except in a text field or on another control (where space has its own meaning).
 * The image follows the state: mic on, mic off. Issue 59: a press on a busy floor may wait in the channel's queue
 * ("En attente (2e)", with Cancel), be offered the floor ("À vous de parler") or be cut off by a higher priority
 * ("Interrompu par …"): the text under the button says which. Issue 70: an offered turn has its own look (green,
 * pulsing, a plain microphone) and counts down its seconds; a lapsed one says "Tour passé"; while queued, the hint
 * says that letting go keeps one's place.
 */
import MicIcon from '@mui/icons-material/Mic';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import { keyframes } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FloorWait } from './talkControl.ts';

export interface PushToTalkButtonProps {
  micOn: boolean;
  /** The last press was refused: this person holds the channel's floor. */
  heldBy?: string | null;
  disabled?: boolean;
  onChange: (on: boolean) => void;
  /** Diameter in pixels. */
  size?: number;
  /** Listen to the space bar on the whole page (one button per page should). */
  spaceBar?: boolean;
  /** Hide the texts under the button (compact layouts). */
  compact?: boolean;
  /** The button's name when it is not the page's only one ("Talk on Alpha"); default "Push to talk". */
  label?: string;
  /** What a press does now, shown under the button while idle ("Reply on Atelier"); default "Hold to talk". */
  idleText?: string;
  /** Issue 59: the press waiting in the floor queue, the floor offered, or the talk cut off (VoiceRoomState). */
  wait?: FloorWait;
  /** Leaves the floor queue: the Cancel shown while the press waits (VoiceRoom.cancelFloorQueue). */
  onCancelWait?: () => void;
}

/** The offered turn's pulse: a ring that grows and fades, once a second. */
const turnPulse = keyframes`
  0% { box-shadow: 0 0 0 0 rgba(46, 160, 67, 0.65); }
  70% { box-shadow: 0 0 0 18px rgba(46, 160, 67, 0); }
  100% { box-shadow: 0 0 0 0 rgba(46, 160, 67, 0); }
`;
const TURN_GREEN = '#2e7d32';

const OWN_SPACE = 'input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"], [role="listbox"]';
const OTHER_CONTROL = 'button, a[href], [role="button"], [role="checkbox"], [role="switch"], [role="tab"]';

/** Whether the space bar should talk rather than do what it does on the focused element. */
function spaceTalks(target: EventTarget | null, button: HTMLElement | null): boolean {
  if (!(target instanceof Element)) return true;
  if (button && (target === button || button.contains(target))) return true;
  return !target.closest(OWN_SPACE) && !target.closest(OTHER_CONTROL);
}

// Memoized: the room's page redraws at each press of anyone in the room, this button only when its own props
// change (pages pass a stable onChange).
export const PushToTalkButton = memo(function PushToTalkButton({
  micOn,
  heldBy = null,
  disabled = false,
  onChange,
  size = 132,
  spaceBar = true,
  compact = false,
  label,
  idleText,
  wait = null,
  onCancelWait,
}: PushToTalkButtonProps) {
  const { t } = useTranslation('room');
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const spaceHeld = useRef(false);

  useEffect(() => {
    if (!spaceBar || disabled) return;
    const down = (event: KeyboardEvent) => {
      if (event.code !== 'Space' && event.key !== ' ') return;
      if (!spaceTalks(event.target, buttonRef.current)) return;
      event.preventDefault();
      if (event.repeat || spaceHeld.current) return;
      spaceHeld.current = true;
      onChangeRef.current(true);
    };
    const up = (event: KeyboardEvent) => {
      if ((event.code !== 'Space' && event.key !== ' ') || !spaceHeld.current) return;
      event.preventDefault();
      spaceHeld.current = false;
      onChangeRef.current(false);
    };
    // A key released while the window had no focus never arrives: losing focus ends the press.
    const release = () => {
      if (!spaceHeld.current) return;
      spaceHeld.current = false;
      onChangeRef.current(false);
    };
    const hidden = () => {
      if (document.visibilityState === 'hidden') release();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', release);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', release);
      document.removeEventListener('visibilitychange', hidden);
      release();
    };
  }, [spaceBar, disabled]);

  const press = (event: React.PointerEvent) => {
    if (disabled || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    // Touch captures the pointer implicitly; without releasing it, sliding off the button would not end the press.
    const target = event.currentTarget as HTMLElement;
    if (target.hasPointerCapture?.(event.pointerId)) target.releasePointerCapture(event.pointerId);
    onChange(true);
  };
  // Also while the floor is not granted yet: a release before the grant must not leave the mic on.
  const release = () => {
    if (!spaceHeld.current) onChange(false);
  };

  const offered = !micOn && wait?.kind === 'offered';
  // Issue 70: a plain microphone at rest too: a crossed-out one read as "muted".
  const Icon = MicIcon;
  const stateText = micOn
    ? t('ptt.onAir')
    : wait?.kind === 'offered'
      ? t('ptt.yourTurn')
      : wait?.kind === 'queued'
        ? t('ptt.queued', { count: wait.position, ordinal: true })
        : wait?.kind === 'missed'
          ? t('ptt.turnMissed')
          : wait?.kind === 'interrupted'
            ? t('ptt.interrupted', { name: wait.by })
            : heldBy
              ? t('ptt.busy', { name: heldBy })
              : (idleText ?? t('ptt.idle'));
  const waiting = !micOn && (wait?.kind === 'queued' || wait?.kind === 'offered');
  // A touch screen has no space bar: its hint speaks of keeping the button pressed (issue 17).
  const touch = useMediaQuery('(pointer: coarse)', { noSsr: true });
  // Queued, letting go keeps the place; offered, the press must come before the countdown ends (issue 70).
  const hint =
    !micOn && wait?.kind === 'queued'
      ? t('ptt.hintQueued')
      : offered
        ? t('ptt.hintOffered')
        : touch
          ? t('ptt.hintTouch')
          : t('ptt.hint');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.25 }}>
      <ButtonBase
        ref={buttonRef}
        aria-label={label ?? t('ptt.label')}
        aria-pressed={micOn}
        aria-describedby={compact ? undefined : 'ptt-hint'}
        disabled={disabled}
        data-mic={micOn ? 'on' : 'off'}
        data-turn={offered ? 'offered' : undefined}
        onPointerDown={press}
        onPointerUp={release}
        onPointerLeave={release}
        onPointerCancel={release}
        onContextMenu={(event) => event.preventDefault()}
        onKeyDown={(event) => {
          // Space is handled on the window; Enter would otherwise "click" a press-and-hold control.
          if (event.key === 'Enter') event.preventDefault();
        }}
        sx={{
          width: size,
          height: size,
          borderRadius: '50%',
          touchAction: 'none',
          userSelect: 'none',
          WebkitUserSelect: 'none',
          WebkitTouchCallout: 'none',
          color: '#fff',
          bgcolor: micOn ? '#c0392b' : offered ? TURN_GREEN : '#16324a',
          border: '4px solid',
          borderColor: micOn ? '#f2a541' : offered ? '#a5d6a7' : 'rgba(63,191,180,0.55)',
          boxShadow: micOn
            ? '0 0 0 10px rgba(242,165,65,0.25), 0 0 36px rgba(192,57,43,0.55)'
            : '0 6px 18px rgba(15,37,55,0.28)',
          animation: offered ? `${turnPulse} 1s ease-out infinite` : 'none',
          '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          transition: 'background-color 60ms linear, box-shadow 120ms ease, transform 60ms linear',
          transform: micOn ? 'scale(0.97)' : 'none',
          '&:hover': { bgcolor: micOn ? '#c0392b' : offered ? TURN_GREEN : '#1d3f5c' },
          '&.Mui-disabled': { bgcolor: '#9aa7b2', borderColor: '#c5ced6', boxShadow: 'none' },
        }}
      >
        <Icon sx={{ fontSize: size * 0.46 }} aria-hidden data-icon="mic" />
      </ButtonBase>
      {compact ? null : (
        <Box sx={{ textAlign: 'center' }}>
          <Typography
            sx={{
              fontWeight: 700,
              color: micOn
                ? 'error.main'
                : offered
                  ? 'success.dark'
                  : waiting || wait?.kind === 'missed'
                    ? 'warning.dark'
                    : 'text.primary',
            }}
            aria-live="polite"
          >
            {stateText}
          </Typography>
          {offered ? <TurnCountdown until={wait.until} /> : null}
          {!micOn && wait?.kind === 'queued' && wait.holder ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('ptt.queuedBehind', { name: wait.holder })}
            </Typography>
          ) : null}
          <Typography id="ptt-hint" variant="caption" sx={{ color: 'text.secondary' }}>
            {hint}
          </Typography>
        </Box>
      )}
      {waiting && onCancelWait ? (
        <Button size="small" variant="outlined" color="warning" onClick={onCancelWait}>
          {t('ptt.cancelQueue')}
        </Button>
      ) : null}
    </Box>
  );
});

/**
 * The seconds left to take an offered turn, counted down on screen (issue 70: three silent seconds were missed).
 * Not a live region: "Your turn" is announced once; a number read every second would drown it.
 */
function TurnCountdown({ until }: { until: number }) {
  const { t } = useTranslation('room');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <Typography
      data-testid="ptt-turn-countdown"
      sx={{ fontWeight: 800, fontSize: '1.5rem', lineHeight: 1.2, color: 'success.dark' }}
    >
      {t('ptt.turnCountdown', { count: seconds })}
    </Typography>
  );
}
