/**
 * Cooperative gestures (spec section 2, map view), which Leaflet lacks: the page keeps scrolling under the
 * wheel and under one finger; Ctrl (⌘ on a Mac) + wheel zooms the map and two fingers move it. A hint
 * says so when the user tries otherwise. The mouse still drags the map as usual.
 */
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

export type GestureHint = 'wheel' | 'touch' | null;

/** Between two wheel zoom steps: a trackpad sends dozens of wheel events per gesture. */
const WHEEL_STEP_MS = 90;

export function CooperativeGestures({ onHint }: { onHint: (hint: GestureHint) => void }) {
  const map = useMap();

  useEffect(() => {
    const container = map.getContainer();
    let hintTimer: ReturnType<typeof setTimeout> | undefined;
    let lastStep = 0;
    const touches = new Set<number>();
    const showHint = (hint: GestureHint) => {
      onHint(hint);
      clearTimeout(hintTimer);
      hintTimer = setTimeout(() => onHint(null), 1400);
    };

    const wheel = (event: WheelEvent) => {
      if (!(event.ctrlKey || event.metaKey)) {
        showHint('wheel');
        return; // the page scrolls
      }
      event.preventDefault(); // not the browser's page zoom
      const now = performance.now();
      if (now - lastStep < WHEEL_STEP_MS || event.deltaY === 0) return;
      lastStep = now;
      const step = event.deltaY < 0 ? 1 : -1;
      map.setZoomAround(map.mouseEventToContainerPoint(event), map.getZoom() + step);
      onHint(null);
    };

    // Pointer events come before Leaflet's own (it listens on an inner target): decide before it drags.
    const pointerDown = (event: PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      touches.add(event.pointerId);
      if (touches.size >= 2) map.dragging.enable();
      else map.dragging.disable();
    };
    const pointerUp = (event: PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      touches.delete(event.pointerId);
      if (touches.size === 0) map.dragging.enable();
    };
    const touchMove = (event: TouchEvent) => {
      if (event.touches.length === 1) showHint('touch');
      else onHint(null);
    };

    container.addEventListener('wheel', wheel, { passive: false });
    container.addEventListener('pointerdown', pointerDown, true);
    window.addEventListener('pointerup', pointerUp, true);
    window.addEventListener('pointercancel', pointerUp, true);
    container.addEventListener('touchmove', touchMove, { passive: true });
    return () => {
      clearTimeout(hintTimer);
      container.removeEventListener('wheel', wheel);
      container.removeEventListener('pointerdown', pointerDown, true);
      window.removeEventListener('pointerup', pointerUp, true);
      window.removeEventListener('pointercancel', pointerUp, true);
      container.removeEventListener('touchmove', touchMove);
    };
  }, [map, onHint]);

  return null;
}
