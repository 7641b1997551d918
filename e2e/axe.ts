/**
 * axe-core in a page: its serious and critical violations inside `selector`, each as its rule id and the elements
 * it names, once the page's transitions are over. axe's script is evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline
 * scripts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function seriousViolations(page: Page, selector: string, exclude: string[] = []): Promise<string[]> {
  // A dialog still fading in has its text at part opacity, which axe reads as low contrast: wait until the page's
  // transitions are over (a busy machine draws them slowly); a spinner's endless one, or one cancelled, is no matter.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(AXE);
  const found = await page.evaluate(
    async ([include, left]) => {
      const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: any[] }> } }).axe;
      return (await axe.run({ include: [[include]], exclude: left.map((one) => [one]) })).violations;
    },
    [selector, exclude] as const,
  );
  return found
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node: { target: string[] }) => node.target).join()}`);
}
