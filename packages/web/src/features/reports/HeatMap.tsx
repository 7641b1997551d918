/**
 * Busy hours as a heat map: 7 rows (Monday first) × 24 hours of coloured cells, darker for more transmissions,
 * each cell named "lundi 09 h : 12 transmissions", with a legend of the scale. @mui/x-charts' heat map is in its
 * paid Pro package, so this one is a CSS grid; the table beside it holds the same figures.
 */
import Box from '@mui/material/Box';
import { alpha, useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { Report } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { formatCount, weekdayNames } from './format.ts';

/** The share of the busiest cell that each shade of the legend stands for. */
const SHADES = [0, 0.25, 0.5, 0.75, 1];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export function HeatMap({ hours }: { hours: Report['hours'] }) {
  const { t, i18n } = useTranslation('reports');
  const theme = useTheme();
  const language = i18n.resolvedLanguage ?? 'fr';
  const days = weekdayNames(language);
  const shortDays = days.map((name) => name.slice(0, 3));
  const counts = new Map(hours.map((cell) => [`${cell.day}-${cell.hour}`, cell.transmissions]));
  const max = Math.max(0, ...hours.map((cell) => cell.transmissions));
  const shade = (share: number) =>
    share <= 0 ? theme.palette.action.hover : alpha(theme.palette.primary.main, 0.15 + 0.85 * share);
  const hourLabel = (hour: number) => String(hour).padStart(2, '0');

  return (
    // Focusable: on a narrow screen the grid scrolls sideways, from the keyboard too.
    <Box tabIndex={0} sx={{ overflowX: 'auto' }}>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: 'minmax(2.5rem, auto) repeat(24, minmax(14px, 1fr))',
          gap: '2px',
          minWidth: 420,
          alignItems: 'center',
        }}
      >
        <span />
        {HOURS.map((hour) => (
          <Typography
            key={`label-${hour}`}
            aria-hidden
            variant="caption"
            sx={{ textAlign: 'center', color: 'text.secondary', visibility: hour % 3 === 0 ? 'visible' : 'hidden' }}
          >
            {hourLabel(hour)}
          </Typography>
        ))}
        {days.map((day, dayIndex) => (
          <Box key={day} sx={{ display: 'contents' }}>
            <Typography aria-hidden variant="caption" sx={{ color: 'text.secondary', pr: 0.5 }}>
              {shortDays[dayIndex]}
            </Typography>
            {HOURS.map((hour) => {
              const count = counts.get(`${dayIndex + 1}-${hour}`) ?? 0;
              const label = t('heatmap.cell', {
                day,
                hour: hourLabel(hour),
                count,
                formatted: formatCount(count, language),
              });
              return (
                <Box
                  key={`${day}-${hour}`}
                  role="img"
                  aria-label={label}
                  title={label}
                  data-count={count}
                  sx={{
                    aspectRatio: '1',
                    minHeight: 14,
                    borderRadius: '3px',
                    bgcolor: shade(max > 0 ? count / max : 0),
                  }}
                />
              );
            })}
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('heatmap.legend')}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('heatmap.none')}
        </Typography>
        {SHADES.map((share) => (
          <Box key={share} aria-hidden sx={{ width: 16, height: 16, borderRadius: '3px', bgcolor: shade(share) }} />
        ))}
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('heatmap.upTo', { count: max, formatted: formatCount(max, language) })}
        </Typography>
      </Box>
    </Box>
  );
}
