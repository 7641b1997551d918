/**
 * Functional aliases (issue 59), shared by the settings, /account, the dispatch console, a channel's participants
 * and the map:
 *
 *   useAliases()        every alias with its holders (getAliases), fetched again on `aliases_changed`
 *   useAliasLabels()    Map userId -> the names of the aliases it holds ("Chef de quart"), shown beside its name
 *   useTakeAlias() / useReleaseAlias()   the caller takes or gives back one; the list follows at once
 */
import { type Alias, GetAliases, ReleaseAlias, TakeAlias } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { callKey, useApiMutation, useApiQuery } from './queries.ts';
import { useServerEvents } from './serverEvents.ts';

export type { Alias } from '@talkgroup/protocol';

/** Every alias with its holders, kept live (a reconnection reads them again too). */
export function useAliases(options: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  useServerEvents(['aliases_changed'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetAliases) });
  });
  return useApiQuery(GetAliases, {}, { staleTime: 60_000, ...options });
}

/** The names of the aliases each holder holds, joined ("Chef de quart, Secouriste"). */
export function aliasLabelsOf(aliases: Alias[] | undefined): Map<number, string> {
  const labels = new Map<number, string>();
  for (const alias of aliases ?? [])
    for (const holder of alias.holders) {
      const was = labels.get(holder.userId);
      labels.set(holder.userId, was ? `${was}, ${alias.name}` : alias.name);
    }
  return labels;
}

export function useAliasLabels(options: { enabled?: boolean } = {}): Map<number, string> {
  const aliases = useAliases(options).data?.res;
  return useMemo(() => aliasLabelsOf(aliases), [aliases]);
}

/** The answer (the alias after the change) replaces it in the cached list. */
function usePatchAliases() {
  const queryClient = useQueryClient();
  return (alias: Alias) =>
    queryClient.setQueryData<{ success: boolean; res: Alias[] }>(callKey(GetAliases, {}), (answer) =>
      answer ? { ...answer, res: answer.res.map((one) => (one.id === alias.id ? alias : one)) } : answer,
    );
}

export function useTakeAlias() {
  const patch = usePatchAliases();
  return useApiMutation(TakeAlias, { onSuccess: (answer) => patch(answer.res) });
}

export function useReleaseAlias() {
  const patch = usePatchAliases();
  return useApiMutation(ReleaseAlias, { onSuccess: (answer) => patch(answer.res) });
}
