/**
 * The SOS alarm: a loud two-tone siren repeated every second until it is stopped (an administrator takes the
 * alert or silences it). Web Audio, so no file to load; silent where the browser has no AudioContext.
 */
let context: AudioContext | null = null;
let timer: ReturnType<typeof setInterval> | undefined;

function siren(): void {
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume();
    const start = context.currentTime + 0.02;
    [988, 740, 988, 740].forEach((frequency, index) => {
      if (!context) return;
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'square';
      oscillator.frequency.value = frequency;
      const at = start + index * 0.18;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.17);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.18);
    });
  } catch {
    // No Web Audio: the banner still shows the alert.
  }
}

export function startAlarm(): void {
  if (timer) return;
  siren();
  timer = setInterval(siren, 1500);
}

export function stopAlarm(): void {
  clearInterval(timer);
  timer = undefined;
}
