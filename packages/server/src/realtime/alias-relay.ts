/**
 * Functional aliases across instances (issue 59): an instance that changed who holds an alias tells the others,
 * which read the holders again at once, so that their `floor_taken` and room peers name the new holder without
 * waiting for the labels' periodic read. Told on the same Redis connection as the pushes, before them.
 */
import type { AliasLabels } from '../aliases/labels.ts';
import type { EventBus } from '../events.ts';
import type { Io } from './io.ts';

export function followAliasChanges(
  io: Io,
  services: { events: EventBus; aliasLabels?: Pick<AliasLabels, 'refresh'> },
  shared: boolean,
  onError: (error: unknown) => void,
): () => void {
  io.on('aliasesChanged', () => void services.aliasLabels?.refresh().catch(onError));
  return services.events.on('aliasesChanged', () => {
    // The in-memory adapter has no other instance to tell.
    if (shared) io.serverSideEmit('aliasesChanged');
  });
}
