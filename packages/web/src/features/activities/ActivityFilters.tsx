/**
 * The activity log's filter bar (issue 17 point 10): member, channel, type and a range of days; each control is
 * named by its label, and 'Clear the filters' brings the whole log back.
 */
import Autocomplete, { type AutocompleteProps, createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ACTIVITY_TYPES, type ActivityType, GetMyChannels, GetUsersPage, type User } from '@talkgroup/protocol';
import { keepPreviousData } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChannels, useUsers, useUsersPaged } from '../../api/directory.ts';
import { useApiQuery } from '../../api/queries.ts';
import { useMay } from '../../api/session.ts';
import { type ActivityFilterValues, isFiltering, NO_FILTER } from './activityFilter.ts';

interface Option {
  id: number;
  label: string;
}

/** A long list offers the first matches only: typing narrows it. */
const firstMatches = createFilterOptions<Option>({ limit: 50 });

export interface ActivityFiltersProps {
  value: ActivityFilterValues;
  /** The filters the user changed (the others stay as they are in the address when it is written). */
  onChange: (change: Partial<ActivityFilterValues>) => void;
}

const optionOf = (user: Pick<User, 'id' | 'display_name' | 'firstName' | 'lastName'>): Option => ({
  id: user.id,
  label: user.display_name || `${user.firstName} ${user.lastName}`,
});

/**
 * The members to pick from: every user, filtered here; past USERS_PAGED_ABOVE users (issue 18), the first 50
 * the server finds for the typed text. The picked member stays an option while the text changes. One who does
 * not manage users (a dispatcher) picks among the members of its channels.
 */
function useMemberOptions(text: string, picked: Option | null) {
  const everyone = useMay().may('users.manage');
  const paged = useUsersPaged({ enabled: everyone });
  const whole = useUsers({ enabled: everyone && paged === false });
  const mine = useApiQuery(GetMyChannels, {}, { enabled: !everyone });
  const searched = useDeferredValue(text.trim());
  const found = useApiQuery(
    GetUsersPage,
    { start: 0, limit: 50, search: searched || undefined, sort: 'firstName', direction: 'asc' },
    { enabled: everyone && paged === true, placeholderData: keepPreviousData },
  );
  return useMemo(() => {
    if (!everyone) {
      const members = new Map<number, Option>();
      for (const channel of mine.data?.res ?? [])
        for (const user of channel.users) members.set(user.id, optionOf(user));
      return { options: [...members.values()], filter: firstMatches };
    }
    if (!paged) return { options: (whole.data?.res ?? []).map(optionOf), filter: firstMatches };
    const options = (found.data?.res.users ?? []).map(optionOf);
    if (picked && !options.some((option) => option.id === picked.id)) options.unshift(picked);
    return { options, filter: (shown: Option[]) => shown };
  }, [everyone, mine.data, paged, whole.data, found.data, picked]);
}

export function ActivityFilters({ value, onChange }: ActivityFiltersProps) {
  const { t } = useTranslation('activities');
  const channels = useChannels().data?.res ?? [];
  const [memberText, setMemberText] = useState('');
  const [pickedMember, setPickedMember] = useState<Option | null>(null);
  const members = useMemberOptions(memberText, pickedMember);
  const channelOptions: Option[] = channels.map((channel) => ({ id: channel.id, label: channel.name }));
  const set = onChange;

  const picker = (
    label: string,
    options: Option[],
    selected: number | undefined,
    pick: (option: Option | null) => void,
    more: Partial<AutocompleteProps<Option, false, false, false>> = {},
  ) => (
    <Autocomplete
      size="small"
      options={options}
      filterOptions={firstMatches}
      value={options.find((option) => option.id === selected) ?? null}
      onChange={(_, option) => pick(option)}
      isOptionEqualToValue={(option, current) => option.id === current.id}
      renderInput={(params) => <TextField {...params} label={label} />}
      sx={{ minWidth: 200, flex: '1 1 200px' }}
      {...more}
    />
  );

  return (
    <Box
      role="search"
      aria-label={t('filters.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}
    >
      {picker(
        t('filters.member'),
        members.options,
        value.member,
        (member) => {
          setPickedMember(member);
          set({ member: member?.id });
        },
        { filterOptions: members.filter, onInputChange: (_, text) => setMemberText(text) },
      )}
      {picker(t('filters.channel'), channelOptions, value.channel, (channel) => set({ channel: channel?.id }))}
      <TextField
        select
        size="small"
        label={t('filters.type')}
        value={value.type ?? ''}
        onChange={(event) => set({ type: (event.target.value || undefined) as ActivityType | undefined })}
        sx={{ minWidth: 180, flex: '1 1 180px' }}
      >
        <MenuItem value="">{t('filters.anyType')}</MenuItem>
        {ACTIVITY_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`typeNames.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        size="small"
        label={t('filters.from')}
        value={value.from ?? ''}
        onChange={(event) => set({ from: event.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: value.to } }}
        sx={{ width: 170 }}
      />
      <TextField
        type="date"
        size="small"
        label={t('filters.to')}
        value={value.to ?? ''}
        onChange={(event) => set({ to: event.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: value.from } }}
        sx={{ width: 170 }}
      />
      {isFiltering(value) ? <Button onClick={() => onChange(NO_FILTER)}>{t('filters.clear')}</Button> : null}
    </Box>
  );
}
