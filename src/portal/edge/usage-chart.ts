import { type Markup, html } from './html.js';

export interface HourCount {
  hourStartMs: number;
  requests: number;
}

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 56, right: 12, top: 16, bottom: 32 };

const hourLabel = (ms: number) => new Date(ms).toISOString().slice(11, 13);

/**
 * Requests per hour as a server-rendered SVG bar chart with the tier's hourly limit drawn as a
 * line; a title and description name it for screen readers, and the page shows the same numbers
 * as a table.
 */
export function usageChart(hours: readonly HourCount[], limit: number): Markup {
  const top = Math.max(limit, ...hours.map((h) => h.requests)) * 1.1 || 1;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
  const slot = plotW / Math.max(1, hours.length);
  const total = hours.reduce((sum, h) => sum + h.requests, 0);
  const bars = hours.map((h, i) => {
    const x = PAD.left + i * slot + slot * 0.15;
    const barTop = y(h.requests);
    return html`<rect
      class="bar"
      x="${x.toFixed(1)}"
      y="${barTop.toFixed(1)}"
      width="${(slot * 0.7).toFixed(1)}"
      height="${(PAD.top + plotH - barTop).toFixed(1)}"
      ><title>${hourLabel(h.hourStartMs)}:00 UTC: ${h.requests} requests</title></rect
    >`;
  });
  const ticks = hours
    .map((h, i) => ({ h, i }))
    .filter(({ i }) => i % 3 === 0)
    .map(
      ({ h, i }) =>
        html`<text class="tick" x="${(PAD.left + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle"
          >${hourLabel(h.hourStartMs)}</text
        >`,
    );
  const limitY = y(limit).toFixed(1);
  return html`<svg
    class="chart"
    viewBox="0 0 ${WIDTH} ${HEIGHT}"
    role="img"
    aria-labelledby="chart-title chart-desc"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="chart-title">Requests per hour, last ${hours.length} hours (UTC)</title>
    <desc id="chart-desc">${total} requests in total; the hourly limit of your tier is ${limit}.</desc>
    <line class="axis" x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${WIDTH - PAD.right}" y2="${PAD.top + plotH}" />
    <text class="tick" x="${PAD.left - 6}" y="${PAD.top + plotH}" text-anchor="end">0</text>
    ${bars}
    <line class="limit" x1="${PAD.left}" y1="${limitY}" x2="${WIDTH - PAD.right}" y2="${limitY}" />
    <text class="limit-label" x="${PAD.left - 6}" y="${limitY}" text-anchor="end" dominant-baseline="middle">${limit}</text>
    ${ticks}
  </svg>`;
}
