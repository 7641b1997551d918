/** A Total Users / Total Channels tile: the total, the percent change over ten days and the trend chart. */
import TrendingFlatIcon from '@mui/icons-material/TrendingFlat';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TrendChart } from './TrendChart.tsx';

export interface StatTileProps {
  title: string;
  icon: ReactNode;
  color: string;
  /** Undefined while loading. */
  total?: number;
  trend?: number[];
  /** Percent, see docs/api.md. */
  change?: number;
  what: string;
}

export function StatTile({ title, icon, color, total, trend, change, what }: StatTileProps) {
  const { t, i18n } = useTranslation('dashboard');
  const titleId = useId();
  const language = i18n.resolvedLanguage ?? 'fr';
  const changeText =
    change === undefined
      ? ''
      : new Intl.NumberFormat(language, {
          style: 'percent',
          signDisplay: 'exceptZero',
          maximumFractionDigits: 1,
        }).format(change / 100);
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, height: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <Box
            aria-hidden
            sx={{
              width: 40,
              height: 40,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              color,
              bgcolor: 'action.hover',
            }}
          >
            {icon}
          </Box>
          <Typography id={titleId} variant="h3" component="h2" sx={{ fontSize: '1rem', color: 'text.secondary' }}>
            {title}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1.5, flexWrap: 'wrap' }}>
          {total === undefined ? (
            <Skeleton width={64} height={48} />
          ) : (
            <Typography
              component="p"
              sx={{ fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.1 }}
              aria-label={t('tiles.totalLabel', { title, total })}
            >
              {total.toLocaleString(language)}
            </Typography>
          )}
          {change === undefined ? null : (
            <Chip
              size="small"
              icon={change > 0 ? <TrendingUpIcon /> : <TrendingFlatIcon />}
              color={change > 0 ? 'success' : 'default'}
              variant="outlined"
              label={t('tiles.change', { change: changeText })}
              sx={{ fontWeight: 600 }}
            />
          )}
        </Box>
        <Box sx={{ mt: 'auto' }}>
          {trend ? <TrendChart trend={trend} label={what} color={color} /> : <Skeleton variant="rounded" height={56} />}
          <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 0.5 }}>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t('trend.start')}
            </Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t('trend.end')}
            </Typography>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
