/**
 * A hardware talk key (issue 34): rugged phones' PTT keys and Bluetooth buttons that act as a keyboard send a
 * key; the member teaches the page which one ("Talk key"), and then holding it talks and letting go stops (a
 * true hold, not a toggle). Kept on the device (localStorage). Where the browser has Web Bluetooth, the common
 * BLE PTT buttons (service 0xFFE0, characteristic 0xFFE1: 1 pressed, 0 released) pair from the same place.
 *
 * A phone gives the microphone only to the page in front: a press while the page is hidden is refused with a
 * sentence and the busy tone, and nothing claims "on air". Typing in a text field never talks.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { playNotes } from '../../components/tones.ts';

const STORAGE_KEY = 'talkgroup.talkKey';
const PTT_SERVICE = 0xffe0;
const PTT_CHARACTERISTIC = 0xffe1;
/** A press refused: the radio's busy tone (three short low notes). */
const REFUSED_NOTES = [400, 0, 400, 0, 400];

/** A key as the page recognises it again, and its name for the screen. */
export interface TalkKey {
  id: string;
  name: string;
}

/** The few Web Bluetooth calls used here (not in TypeScript's DOM library). */
interface BleCharacteristic extends EventTarget {
  value?: DataView;
  startNotifications(): Promise<BleCharacteristic>;
}
interface BleDevice extends EventTarget {
  name?: string;
  gatt?: {
    connect(): Promise<{
      getPrimaryService(service: number): Promise<{ getCharacteristic(id: number): Promise<BleCharacteristic> }>;
    }>;
    disconnect(): void;
  };
}
interface Bluetooth {
  requestDevice(options: { filters: Array<{ services: number[] }> }): Promise<BleDevice>;
}
const bluetooth = (): Bluetooth | undefined =>
  typeof navigator !== 'undefined' ? (navigator as Navigator & { bluetooth?: Bluetooth }).bluetooth : undefined;

/** What identifies a key: its code, else its value, else the legacy key number (some PTT keys have no name). */
export function keyIdOf(event: Pick<KeyboardEvent, 'code' | 'key' | 'keyCode'>): string {
  if (event.code) return `code:${event.code}`;
  if (event.key && event.key !== 'Unidentified') return `key:${event.key}`;
  return `keyCode:${event.keyCode}`;
}

/** The key's name as a person reads it: "F8", "A", "VolumeUp", or "Key 286" for a nameless one. */
export function keyNameOf(event: Pick<KeyboardEvent, 'code' | 'key' | 'keyCode'>): string {
  if (event.key === ' ') return 'Space';
  if (event.key && event.key !== 'Unidentified') return event.key.length === 1 ? event.key.toUpperCase() : event.key;
  if (event.code) return event.code;
  return `Key ${event.keyCode}`;
}

function load(): TalkKey | null {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as TalkKey | null;
    return saved && typeof saved.id === 'string' && typeof saved.name === 'string' ? saved : null;
  } catch {
    return null;
  }
}

const editable = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement);

export type TalkKeyRefusal = 'hidden' | null;

export function useTalkKey(onTalk: (on: boolean) => void) {
  const [key, setKey] = useState<TalkKey | null>(load);
  const [learning, setLearning] = useState(false);
  const [refusal, setRefusal] = useState<TalkKeyRefusal>(null);
  const [button, setButton] = useState<{ name: string } | null>(null);
  const [pairingFailed, setPairingFailed] = useState(false);
  const onTalkRef = useRef(onTalk);
  onTalkRef.current = onTalk;
  const held = useRef(false);
  const device = useRef<BleDevice | null>(null);

  /** A press from the key or the Bluetooth button: talks, unless the page is not in front. */
  const press = useCallback(() => {
    if (held.current) return;
    if (document.visibilityState === 'hidden') {
      setRefusal('hidden');
      playNotes(REFUSED_NOTES, { noteSeconds: 0.12, level: 0.2 });
      return;
    }
    setRefusal(null);
    held.current = true;
    onTalkRef.current(true);
  }, []);
  const release = useCallback(() => {
    if (!held.current) return;
    held.current = false;
    onTalkRef.current(false);
  }, []);

  useEffect(() => {
    const down = (event: KeyboardEvent) => {
      if (learning) {
        event.preventDefault();
        event.stopPropagation();
        if (event.key === 'Escape') {
          setLearning(false);
          return;
        }
        const learnt = { id: keyIdOf(event), name: keyNameOf(event) };
        localStorage.setItem(STORAGE_KEY, JSON.stringify(learnt));
        setKey(learnt);
        setLearning(false);
        return;
      }
      if (!key || keyIdOf(event) !== key.id || editable(event.target)) return;
      // Handled here: the media keys' own meaning (useMediaSession) and the browser's do not apply.
      event.preventDefault();
      if (!event.repeat) press();
    };
    const up = (event: KeyboardEvent) => {
      if (!key || keyIdOf(event) !== key.id) return;
      event.preventDefault();
      release();
    };
    // The key's release may never reach a page that lost the focus: letting go is assumed then.
    const lost = () => release();
    window.addEventListener('keydown', down, true);
    window.addEventListener('keyup', up, true);
    window.addEventListener('blur', lost);
    return () => {
      window.removeEventListener('keydown', down, true);
      window.removeEventListener('keyup', up, true);
      window.removeEventListener('blur', lost);
    };
  }, [key, learning, press, release]);

  // Sent to the background while held: the phone takes the microphone away, so talking stops here too.
  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') release();
    };
    document.addEventListener('visibilitychange', hidden);
    return () => document.removeEventListener('visibilitychange', hidden);
  }, [release]);

  // The page leaves: the key stops talking and the Bluetooth button is let go.
  useEffect(
    () => () => {
      if (held.current) onTalkRef.current(false);
      device.current?.gatt?.disconnect();
    },
    [],
  );

  const forget = useCallback(() => {
    localStorage.removeItem(STORAGE_KEY);
    setKey(null);
    release();
  }, [release]);

  const pairBluetooth = useCallback(async () => {
    const ble = bluetooth();
    if (!ble) return;
    setPairingFailed(false);
    try {
      const chosen = await ble.requestDevice({ filters: [{ services: [PTT_SERVICE] }] });
      const server = await chosen.gatt?.connect();
      if (!server) throw new Error('no GATT server');
      const service = await server.getPrimaryService(PTT_SERVICE);
      const characteristic = await service.getCharacteristic(PTT_CHARACTERISTIC);
      characteristic.addEventListener('characteristicvaluechanged', () => {
        const value = characteristic.value?.getUint8(0);
        if (value === 1) press();
        else if (value === 0) release();
      });
      await characteristic.startNotifications();
      chosen.addEventListener('gattserverdisconnected', () => {
        release();
        setButton(null);
      });
      device.current?.gatt?.disconnect();
      device.current = chosen;
      setButton({ name: chosen.name ?? 'Bluetooth' });
    } catch (error) {
      // The person closed the chooser: nothing to say.
      if (!(error instanceof DOMException && error.name === 'NotFoundError')) setPairingFailed(true);
    }
  }, [press, release]);

  return {
    key,
    learning,
    startLearning: () => setLearning(true),
    stopLearning: () => setLearning(false),
    forget,
    refusal,
    dismissRefusal: () => setRefusal(null),
    bluetooth: { supported: bluetooth() !== undefined, button, pairingFailed, pair: pairBluetooth },
  };
}
