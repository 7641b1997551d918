/**
 * Layout checks by bounding boxes (issue 58), run in the page: a control cut, covered or out of its box is
 * named in the returned list, so that a failure says which one and how.
 */
import type { Locator, Page } from '@playwright/test';

/** What the check found wrong in a box: empty when each control is whole, apart and uncut. */
export function boxProblems(box: Locator): Promise<string[]> {
  return box.evaluate((root) => {
    const problems: string[] = [];
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`;
    const outer = root.getBoundingClientRect();
    // The controls: those of a list count as the list (it scrolls inside the box); one inside another, as the outer.
    const found = [
      ...root.querySelectorAll(
        'h2, button, [role="status"], [aria-label$="membres connectés"], .MuiCheckbox-root, .MuiSlider-root, .MuiSwitch-root, .MuiChip-root, ul',
      ),
    ].filter((element) => !element.parentElement?.closest('ul'));
    const controls = found.filter((element) => !found.some((other) => other !== element && other.contains(element)));
    const boxes = controls.map((element) => ({ element, rect: element.getBoundingClientRect() }));
    for (const { element, rect } of boxes) {
      if (rect.width < 1 || rect.height < 1) problems.push(`${name(element)} has no size`);
      if (
        rect.left < outer.left - 1 ||
        rect.right > outer.right + 1 ||
        rect.top < outer.top - 1 ||
        rect.bottom > outer.bottom + 1
      )
        problems.push(`${name(element)} is outside its box`);
      if (rect.left < 0 || rect.right > window.innerWidth + 1) problems.push(`${name(element)} is outside the screen`);
    }
    for (const [index, a] of boxes.entries()) {
      for (const b of boxes.slice(index + 1)) {
        const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (width > 1 && height > 1) problems.push(`${name(a.element)} overlaps ${name(b.element)}`);
      }
    }
    // No text cut: neither an ellipsis nor a line wider than its element.
    for (const element of root.querySelectorAll('*')) {
      const style = getComputedStyle(element);
      const cut = style.textOverflow === 'ellipsis' || style.overflowX === 'hidden';
      if (element.matches('h2, [role="status"]') || (cut && element.children.length === 0 && element.textContent)) {
        if (element.scrollWidth > element.clientWidth + 1) problems.push(`${name(element)} is cut`);
      }
    }
    if (root.scrollWidth > root.clientWidth + 1) problems.push('the box is wider than itself');
    return problems;
  });
}

/** Whether a point-and-click at the middle of `target` reaches it (nothing fixed or floating covers it). */
export function uncovered(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && (element.contains(hit) || hit.contains(element));
  });
}

/** Whether the whole of `target` is on screen. */
export function onScreen(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return rect.top >= 0 && rect.left >= 0 && rect.bottom <= window.innerHeight && rect.right <= window.innerWidth;
  });
}

/** Two frames: what a scroll or a resize changes (observers, layout) is drawn. */
export function nextFrames(page: Page): Promise<unknown> {
  return page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))),
  );
}
