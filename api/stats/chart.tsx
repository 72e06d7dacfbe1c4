// A small bar chart drawn as inline SVG on the server: no script, no outside request, readable
// without CSS (a <title> and a caption carry the numbers for screen readers).
import type { StatsDay } from '../../core/stats/listing-stats.ts';

export interface ChartPoint {
  day: string;
  value: number;
}

export function BarChart({
  label,
  points,
  width = 320,
  height = 80,
  colour = '#2563eb',
}: {
  label: string;
  points: ChartPoint[];
  width?: number;
  height?: number;
  colour?: string;
}) {
  const max = Math.max(1, ...points.map((p) => p.value));
  const total = points.reduce((n, p) => n + p.value, 0);
  const gap = 1;
  const bar = Math.max(1, (width - gap * (points.length - 1)) / Math.max(1, points.length));
  const first = points[0]?.day ?? '';
  const last = points[points.length - 1]?.day ?? '';
  return (
    <figure class="chart">
      <figcaption>
        <strong>{label}</strong>: {total} ({first} to {last})
      </figcaption>
      <svg width={width} height={height + 14} viewBox={`0 0 ${width} ${height + 14}`} role="img" aria-label={`${label}: ${total} from ${first} to ${last}`}>
        <title>{`${label}: ${total}`}</title>
        <line x1="0" y1={height} x2={width} y2={height} stroke="#cbd5e1" stroke-width="1" />
        {points.map((p, i) => {
          const h = Math.round((p.value / max) * (height - 4));
          return (
            <rect x={(i * (bar + gap)).toFixed(1)} y={height - h} width={bar.toFixed(1)} height={h} fill={colour}>
              <title>{`${p.day}: ${p.value}`}</title>
            </rect>
          );
        })}
        <text x="0" y={height + 12} font-size="10" fill="#64748b">
          {first}
        </text>
        <text x={width} y={height + 12} font-size="10" fill="#64748b" text-anchor="end">
          {last}
        </text>
      </svg>
    </figure>
  );
}

const SERIES: { key: keyof Omit<StatsDay, 'day'>; label: string; colour: string }[] = [
  { key: 'views', label: 'Page views', colour: '#2563eb' },
  { key: 'clicks', label: 'Website clicks', colour: '#16a34a' },
  { key: 'badge_impressions', label: 'Badge impressions', colour: '#9333ea' },
  { key: 'api_reads', label: 'API reads', colour: '#0891b2' },
  { key: 'mcp_reads', label: 'MCP reads', colour: '#0d9488' },
  { key: 'follows', label: 'New followers', colour: '#ea580c' },
  { key: 'votes', label: 'New votes', colour: '#db2777' },
];

/** Every series of get_listing_stats as its own chart. */
export function StatsCharts({ series }: { series: StatsDay[] }) {
  return (
    <div class="charts">
      {SERIES.map((s) => (
        <BarChart label={s.label} colour={s.colour} points={series.map((d) => ({ day: d.day, value: d[s.key] }))} />
      ))}
    </div>
  );
}
