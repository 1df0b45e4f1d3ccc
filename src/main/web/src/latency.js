// Live latency of a lab's probes (lab.yml `probes`): the statistics socket's "probe" frames carry round trips that
// the platform's ping measured, and "probe-notice" frames say when a probe stopped. One chart of round trips in ms,
// a line per probe in a colour of its own (by its place in lab.yml), lost pings as rings along the chart's top. The
// same chart is shown above every node's statistics: the queue that makes it rise may sit on any node.
import uPlot from 'uplot';
import { el } from './dom.js';

const WINDOW_S = 120;
const HEIGHT = 130;
// Four probes at most per lab; colours apart from the qdisc palettes so a delay line is never read as a rate.
const PALETTES = {
  light: ['#6a1b9a', '#00695c', '#ad1457', '#455a64'],
  dark: ['#d59cff', '#5fd3c1', '#ff80ab', '#b0bec5'],
};
const DARK = window.matchMedia('(prefers-color-scheme: dark)');

function cssColour(name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function msLabel(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms >= 100) return `${Math.round(ms)} ms`;
  if (ms >= 1) return `${+ms.toPrecision(3)} ms`;
  return `${+ms.toFixed(3)} ms`;
}

/** One chart of every probe's round trips, drawn into a box of its own. */
class LatencyChart {
  constructor(box, plots) {
    this.plots = plots;
    this.root = el('section', 'tclab-latency');
    this.root.setAttribute('aria-label', 'Latency: round trips of the lab\'s probes');
    this.noticeBox = el('p', 'tclab-latency-notice');
    this.noticeBox.setAttribute('role', 'status');
    this.plotBox = el('div', 'tclab-latency-plot');
    this.root.append(el('p', 'tclab-chart-title', 'Latency (round trip, ms)'), this.noticeBox, this.plotBox);
    box.prepend(this.root);
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(this.root);
  }

  width() {
    return Math.max(160, (this.root.clientWidth || 480) - 4);
  }

  resize() {
    if (this.uplot) this.uplot.setSize({ width: this.width(), height: HEIGHT });
  }

  draw(data, probes) {
    const key = probes.map((p) => p.name).join('|') + (DARK.matches ? '|dark' : '');
    if (this.uplot && this.key === key) {
      this.uplot.setData(data);
      return;
    }
    if (this.uplot) this.uplot.destroy();
    this.key = key;
    this.plotBox.replaceChildren();
    this.uplot = new uPlot(this.plots.options(probes, this.width()), data, this.plotBox);
  }

  notice(text) {
    this.noticeBox.textContent = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.noticeBox.textContent = ''; }, 15000);
  }

  dispose() {
    clearTimeout(this.noticeTimer);
    this.resizer.disconnect();
    if (this.uplot) this.uplot.destroy();
  }
}

/** The probes of one lab: their points of the last two minutes and a chart per statistics box. */
export class LatencyPlots {
  constructor(containers) {
    this.containers = containers;
    // By the probe's place in lab.yml: { name, points: [{ time (s), rtt (ms) or null when lost }] }.
    this.probes = new Map();
    this.charts = null;
  }

  /** A "probe" or "probe-notice" frame of the statistics socket. */
  message(frame) {
    this.ensureCharts();
    if (frame.type === 'probe-notice') {
      this.charts.forEach((c) => c.notice(frame.message));
      return;
    }
    if (!this.probes.has(frame.index)) {
      // Kept in lab.yml's order, so the series (and their colours) line up with data().
      const probes = [...this.probes.entries(), [frame.index, { name: frame.probe, points: [] }]];
      this.probes = new Map(probes.sort((a, b) => a[0] - b[0]));
    }
    const probe = this.probes.get(frame.index);
    for (const p of frame.points) probe.points.push({ time: p.time / 1000, rtt: p.lost ? null : p.rttMs });
    // A loss is found a little later than the replies around it: keep each probe in the order its pings left.
    probe.points.sort((a, b) => a.time - b.time);
    this.draw();
  }

  ensureCharts() {
    if (!this.charts) this.charts = Object.values(this.containers).map((box) => new LatencyChart(box, this));
  }

  colour(index) {
    const palette = PALETTES[DARK.matches ? 'dark' : 'light'];
    return palette[index % palette.length];
  }

  /** The last two minutes as uPlot data: the times, then per probe its round trips and its losses. */
  data() {
    const newest = Math.max(...[...this.probes.values()].map((p) => (p.points.length ? p.points[p.points.length - 1].time : 0)));
    for (const probe of this.probes.values()) {
      while (probe.points.length && probe.points[0].time < newest - WINDOW_S) probe.points.shift();
    }
    this.newest = newest;
    const times = [...new Set([...this.probes.values()].flatMap((p) => p.points.map((x) => x.time)))].sort((a, b) => a - b);
    const slot = new Map(times.map((t, i) => [t, i]));
    let top = 1;
    for (const probe of this.probes.values()) for (const p of probe.points) if (p.rtt !== null) top = Math.max(top, p.rtt);
    const series = [];
    for (const probe of this.probes.values()) {
      const rtts = times.map(() => null);
      const lost = times.map(() => null);
      for (const p of probe.points) {
        if (p.rtt === null) lost[slot.get(p.time)] = top * 1.05;
        else rtts[slot.get(p.time)] = p.rtt;
      }
      series.push(rtts, lost);
    }
    return [times].concat(series);
  }

  draw() {
    const probes = [...this.probes.entries()].map(([index, p]) => ({ index, name: p.name }));
    const data = this.data();
    let points = 0;
    for (const probe of this.probes.values()) points += probe.points.length;
    // The first probe's latest round trip, also for the page's tests (as data-samples of the statistics).
    const replies = this.probes.values().next().value.points.filter((p) => p.rtt !== null);
    const latest = replies.length ? replies[replies.length - 1].rtt : null;
    for (const chart of this.charts) {
      chart.draw(data, probes);
      chart.root.dataset.points = String(points);
      if (latest !== null) chart.root.dataset.latestMs = String(latest);
    }
  }

  options(probes, width) {
    const fg = cssColour('--fg', '#1d1f21');
    const grid = cssColour('--border', '#d5d8dc');
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const series = [{ value: (u, t) => (t === null ? '' : `${Math.round(t - this.newest)} s`) }];
    for (const probe of probes) {
      const colour = this.colour(probe.index);
      series.push({ label: probe.name, stroke: colour, width: 1.5, spanGaps: true,
        points: { show: true, size: 4, space: 0, stroke: colour, fill: colour }, value: (u, v) => msLabel(v) });
      series.push({ label: `${probe.name}: lost`, stroke: colour, width: 2, paths: () => null,
        points: { show: true, size: 9, space: 0, stroke: colour, fill: 'transparent', width: 2 },
        value: (u, v) => (v === null ? '' : 'lost') });
    }
    return {
      width,
      height: HEIGHT,
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(1, (max || 0) * 1.1)] } },
      series,
      axes: [
        { ...axis, space: 55, incrs: [1, 2, 5, 10, 15, 20, 30, 60, 120], values: (u, splits) => splits.map((t) => {
          const ago = Math.round(t - this.newest);
          return ago === 0 ? 'now' : `${ago} s`;
        }) },
        { ...axis, size: 64, values: (u, splits) => splits.map((v) => msLabel(v)) },
      ],
      legend: { live: false },
      cursor: { show: false },
    };
  }

  dispose() {
    if (this.charts) this.charts.forEach((c) => c.dispose());
    this.charts = null;
  }
}
