/**
 * Ten daily bars drawn in SVG (no chart library): bucket 9 (ten days ago) on the left, bucket 0 (the last
 * 24 hours) on the right, highlighted. The accessible name lists the values in that order.
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

const WIDTH = 200;
const HEIGHT = 56;
const GAP = 5;

export interface TrendChartProps {
  /** trend[i] = items created between i and i+1 days ago (the server's buckets). */
  trend: number[];
  /** What is counted, for the accessible name ('users', 'channels'). */
  label: string;
  color: string;
}

export function TrendChart({ trend, label, color }: TrendChartProps) {
  const { t } = useTranslation('dashboard');
  const theme = useTheme();
  const oldestFirst = [...trend].reverse();
  const max = Math.max(1, ...oldestFirst);
  const barWidth = (WIDTH - GAP * (oldestFirst.length - 1)) / oldestFirst.length;
  return (
    <Box
      component="svg"
      role="img"
      aria-label={t('trend.label', { what: label, values: oldestFirst.join(', ') })}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      sx={{ display: 'block', width: '100%', height: HEIGHT }}
    >
      {oldestFirst.map((count, index) => {
        const daysAgo = oldestFirst.length - 1 - index;
        const height = count === 0 ? 2 : Math.max(4, (count / max) * (HEIGHT - 4));
        return (
          <rect
            // biome-ignore lint/suspicious/noArrayIndexKey: a bar is its position (its age in days)
            key={index}
            x={index * (barWidth + GAP)}
            y={HEIGHT - height}
            width={barWidth}
            height={height}
            rx={2}
            fill={count === 0 ? theme.palette.divider : color}
            opacity={count === 0 ? 1 : daysAgo === 0 ? 1 : 0.55}
          >
            <title>
              {daysAgo === 0 ? t('trend.today', { count }) : t('trend.daysAgo', { count: daysAgo, value: count })}
            </title>
          </rect>
        );
      })}
    </Box>
  );
}
