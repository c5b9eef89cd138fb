import type { BenchResults } from './bench-results.js';
import { sizeLabel } from './options.js';

const COLOURS = ['#7f8c8d', '#bdc3c7', '#2e86de', '#27ae60', '#e67e22', '#8e44ad'];
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Grouped bars of requests per second, one group per scenario, with the bare-Koa ceiling as a dashed line. */
export function throughputChart(results: BenchResults): string {
  const targets = [...new Set(results.scenarios.flatMap(({ measurements }) => Object.keys(measurements)))];
  const values = results.scenarios.flatMap(({ measurements }) => Object.values(measurements).map((m) => m.rps));
  const ceiling = results.koa?.rps ?? 0;
  const top = Math.max(1, ...values, ceiling) * 1.12;
  const group = 30 + targets.length * 26;
  const left = 70;
  const width = left + results.scenarios.length * group + 20;
  const plotTop = 50;
  const plotHeight = 300;
  const y = (v: number) => plotTop + plotHeight - (v / top) * plotHeight;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${plotTop + plotHeight + 80}" font-family="sans-serif" font-size="11">`,
    `<text x="${left}" y="20" font-size="14" font-weight="bold">Requests per second, ${sizeLabel(results.docs)} wallpapers (${results.options.connections} connections, ${results.startedAt.slice(0, 10)})</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (top / 1.12) * (i / 4);
    out.push(
      `<line x1="${left}" x2="${width - 10}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`,
    );
  }
  results.scenarios.forEach(({ scenario, measurements }, g) => {
    const x0 = left + g * group + 15;
    const es = measurements['es']?.rps ?? 0;
    targets.forEach((target, t) => {
      const m = measurements[target];
      if (!m) return;
      const x = x0 + t * 26;
      out.push(`<rect x="${x}" y="${y(m.rps)}" width="22" height="${plotTop + plotHeight - y(m.rps)}" fill="${COLOURS[t % COLOURS.length]}"/>`);
      if (!target.startsWith('es') && es > 0)
        out.push(`<text x="${x + 11}" y="${y(m.rps) - 4}" text-anchor="middle" font-size="9">${(m.rps / es).toFixed(2)}×</text>`);
    });
    out.push(`<text x="${x0 + (targets.length * 26) / 2}" y="${plotTop + plotHeight + 16}" text-anchor="middle">${escape(scenario)}</text>`);
  });
  if (ceiling > 0) {
    out.push(
      `<line x1="${left}" x2="${width - 10}" y1="${y(ceiling)}" y2="${y(ceiling)}" stroke="#c0392b" stroke-dasharray="6 4"/>`,
      `<text x="${width - 12}" y="${y(ceiling) - 4}" text-anchor="end" fill="#c0392b">bare Koa, fixed body: ${Math.round(ceiling)}</text>`,
    );
  }
  targets.forEach((target, t) => {
    const x = left + t * 140;
    const yy = plotTop + plotHeight + 40;
    out.push(
      `<rect x="${x}" y="${yy}" width="12" height="12" fill="${COLOURS[t % COLOURS.length]}"/>`,
      `<text x="${x + 18}" y="${yy + 10}">${escape(target)}</text>`,
    );
  });
  out.push(
    `<text x="${left}" y="${plotTop + plotHeight + 72}" fill="#555">ratios over the bars: target / es (direct Elasticsearch, the same requests), same run</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
