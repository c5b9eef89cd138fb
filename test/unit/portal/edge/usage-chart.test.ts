import { expect } from 'chai';
import { usageChart } from '../../../../src/portal/edge/usage-chart.js';

const hours = (counts: number[]) => counts.map((requests, i) => ({ hourStartMs: Date.UTC(2026, 10, 22, i), requests }));

describe('portal usage chart', () => {
  it('when hours are drawn, then there is one bar per hour and the limit line sits above the tallest bar under it', () => {
    const svg = usageChart(hours([0, 10, 500, 1000]), 1000).value;
    expect(svg.match(/<rect\s+class="bar"/g)).to.have.length(4);
    const limitY = Number(/class="limit"\s+x1="[\d.]+"\s+y1="([\d.]+)"/.exec(svg)![1]);
    const barTops = [...svg.matchAll(/<rect\s+class="bar"\s+x="[\d.]+"\s+y="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.min(...barTops)).to.be.closeTo(limitY, 0.2);
    expect(svg).to.include('1510 requests in total; the hourly limit of your tier is 1000.');
  });

  it('when usage exceeds the limit (after a downgrade), then the axis grows to hold the tallest bar', () => {
    const svg = usageChart(hours([3000]), 1000).value;
    const top = Number(/<rect\s+class="bar"\s+x="[\d.]+"\s+y="([\d.]+)"/.exec(svg)![1]);
    expect(top).to.be.greaterThan(0);
  });

  it('when a bar is drawn, then its title names the hour and count for screen readers and hover', () => {
    expect(usageChart(hours([7]), 1000).value).to.include('<title>00:00 UTC: 7 requests</title>');
  });
});
