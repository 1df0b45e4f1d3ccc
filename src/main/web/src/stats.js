// Live tc statistics from /ws/labs/{lab}/stats: per node, uPlot charts (throughput, backlog, drops per qdisc) and
// the qdisc/class/filter tree. tc output the server could not parse is shown raw.
import uPlot from 'uplot';
import { el } from './dom.js';
import { LatencyPlots } from './latency.js';

const HISTORY = 120;
const MAX_BACKOFF_MS = 15000;
// Below this a log axis has nothing to show (an idle line); such values are gaps rather than a floor.
const MIN_BITS = 1000;

// Throughput is plotted in bit/s on a log axis: a 25 Gbit/s baseline and a 10 Mbit/s shaped rate both stay readable.
const CHARTS = [
  { key: 'throughput', title: 'Throughput (out: leaving this node; in: arriving, such as the ACKs of an upload)', height: 140, log: true, empty: 'No traffic yet.',
    value: (q) => (q.rates ? q.rates.bitsPerSecond : null) },
  { key: 'backlog', title: 'Backlog (bytes queued)', height: 110, empty: 'No qdisc yet: add one with tc and its queue shows here.',
    value: (q) => q.counters.backlogBytes },
  { key: 'drops', title: 'Drops per second', height: 110, empty: 'No qdisc yet: its drops show here.',
    value: (q) => (q.rates ? q.rates.dropsPerSecond : null) },
];
// Two palettes of eight distinguishable colours, for light and dark page backgrounds.
const PALETTES = {
  light: ['#1f6fb4', '#c62828', '#2e7d32', '#e06c00', '#7b3fb0', '#8c564b', '#c2185b', '#00838f'],
  dark: ['#6cb2ff', '#ff8a80', '#7ed68a', '#ffb454', '#c79bff', '#d7a98c', '#ff7fbf', '#4fd6e0'],
};
const DARK = window.matchMedia('(prefers-color-scheme: dark)');

/** The page's colour (a CSS custom property of css/tclab.css), for drawing on a canvas. */
function cssColour(name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function bitsLabel(bits) {
  if (bits >= 1e9) return `${+(bits / 1e9).toPrecision(3)} Gbit/s`;
  if (bits >= 1e6) return `${+(bits / 1e6).toPrecision(3)} Mbit/s`;
  if (bits >= 1e3) return `${+(bits / 1e3).toPrecision(3)} kbit/s`;
  return `${Math.round(bits)} bit/s`;
}

function bytesLabel(bytes) {
  if (bytes >= 1e6) return `${+(bytes / 1e6).toPrecision(3)} MB`;
  if (bytes >= 1e3) return `${+(bytes / 1e3).toPrecision(3)} kB`;
  return `${Math.round(bytes)} B`;
}

function rate(bits) {
  if (bits === null || bits === undefined) return '–';
  if (bits >= 1e6) return `${(bits / 1e6).toFixed(2)} Mbit/s`;
  if (bits >= 1e3) return `${(bits / 1e3).toFixed(1)} kbit/s`;
  return `${Math.round(bits)} bit/s`;
}

function counters(item) {
  const r = item.rates;
  const parts = [rate(r ? r.bitsPerSecond : null), `backlog ${item.counters.backlogBytes}b ${item.counters.qlen}p`,
    `dropped ${item.counters.drops}`];
  if (r && r.dropsPerSecond > 0) parts.push(`${r.dropsPerSecond.toFixed(1)} drops/s`);
  return parts.join(', ');
}

/** One node's statistics: charts of what its interfaces and qdiscs do, and its tree. */
class NodeStats {
  constructor(container, node) {
    this.node = node;
    this.root = el('div', 'tclab-stats-node');
    this.root.dataset.node = node;
    this.chartBox = el('div', 'tclab-charts');
    this.treeBox = el('div', 'tclab-tree');
    this.noticeBox = el('div', 'tclab-stats-notice');
    // Stays while the server says the node holds its CPU at its limit (repeated every few seconds).
    this.cpuBox = el('div', 'tclab-stats-notice tclab-stats-cpu');
    this.cpuBox.setAttribute('role', 'status');
    this.cpuBox.hidden = true;
    this.root.append(this.cpuBox, this.noticeBox, this.chartBox, this.treeBox);
    container.append(this.root);
    this.times = [];
    // Per chart: series label -> values, one per sample time.
    this.series = Object.fromEntries(CHARTS.map((c) => [c.key, new Map()]));
    // One colour per interface direction or qdisc, kept for the page's life and shared by the charts.
    this.colourIndex = new Map();
    this.plots = {};
    this.boxes = Object.fromEntries(CHARTS.map((chart) => {
      const box = el('div', `tclab-chart tclab-chart-${chart.key}`);
      const plot = el('div', 'tclab-chart-plot');
      plot.append(el('p', 'tclab-chart-empty', 'Waiting for the first numbers from the lab…'));
      box.append(el('p', 'tclab-chart-title', chart.title), plot);
      this.chartBox.append(box);
      return [chart.key, box];
    }));
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(this.chartBox);
  }

  sample(sample) {
    this.add(sample);
    this.redraw(sample.devices);
  }

  /**
   * The server's recent samples of this node (a `history` frame, after a reload or reconnect): those newer than what
   * is drawn are added, then drawn once.
   */
  replay(samples) {
    const last = this.times.length ? this.times[this.times.length - 1] : -Infinity;
    const newer = samples.filter((s) => s.time / 1000 > last).slice(-HISTORY);
    if (!newer.length) return;
    newer.forEach((s) => this.add(s));
    this.redraw(newer[newer.length - 1].devices);
  }

  /** Adds a sample's values to the series, without drawing. */
  add(sample) {
    this.times.push(sample.time / 1000);
    const seen = Object.fromEntries(CHARTS.map((c) => [c.key, new Set()]));
    const put = (chartKey, label, value) => {
      const series = this.series[chartKey];
      if (!series.has(label)) series.set(label, this.times.slice(0, -1).map(() => null));
      series.get(label).push(value);
      seen[chartKey].add(label);
    };
    for (const dev of sample.devices) {
      // The interface's own counters move even while it has no queue of its own (noqueue).
      if (dev.link) {
        // "out" and "in", each its own direction: on the sending side of an upload "in" is the returning ACKs, a
        // small fraction of what goes out, which "sent/received" made read like data lost on the way.
        put('throughput', `${dev.dev} out`, dev.link.rates ? dev.link.rates.txBitsPerSecond : null);
        put('throughput', `${dev.dev} in`, dev.link.rates ? dev.link.rates.rxBitsPerSecond : null);
      }
      for (const q of dev.qdiscs) {
        if (q.kind === 'noqueue') continue;
        for (const chart of CHARTS) put(chart.key, `${dev.dev} ${q.handle} ${q.kind}`, chart.value(q));
      }
    }
    for (const chart of CHARTS) {
      for (const [label, values] of this.series[chart.key]) {
        // What no longer exists leaves the chart and its legend (a deleted or replaced qdisc).
        if (!seen[chart.key].has(label)) this.series[chart.key].delete(label);
        else if (this.times.length > HISTORY) values.shift();
      }
    }
    if (this.times.length > HISTORY) this.times.shift();
    this.root.dataset.samples = String((Number(this.root.dataset.samples) || 0) + 1);
  }

  redraw(devices) {
    CHARTS.forEach((chart) => this.draw(chart));
    this.drawTree(devices);
  }

  colour(label) {
    if (!this.colourIndex.has(label)) this.colourIndex.set(label, this.colourIndex.size);
    const palette = PALETTES[DARK.matches ? 'dark' : 'light'];
    return palette[this.colourIndex.get(label) % palette.length];
  }

  draw(chart) {
    const series = this.series[chart.key];
    const box = this.boxes[chart.key];
    const plotBox = box.querySelector('.tclab-chart-plot');
    const plot = this.plots[chart.key];
    if (!series.size) {
      if (plot) plot.uplot.destroy();
      delete this.plots[chart.key];
      if (plotBox.textContent !== chart.empty) plotBox.replaceChildren(el('p', 'tclab-chart-empty', chart.empty));
      return;
    }
    const clean = (values) => (chart.log ? values.map((v) => (v === null || v < MIN_BITS ? null : v)) : values.slice());
    const data = [this.times.slice()].concat([...series.values()].map(clean));
    const labels = [...series.keys()].join('|') + (DARK.matches ? '|dark' : '');
    if (plot && plot.labels === labels) {
      plot.uplot.setData(data);
      return;
    }
    if (plot) plot.uplot.destroy();
    plotBox.replaceChildren();
    this.plots[chart.key] = { labels, uplot: new uPlot(this.options(chart, [...series.keys()]), data, plotBox) };
  }

  options(chart, labels) {
    const fg = cssColour('--fg', '#1d1f21');
    const grid = cssColour('--border', '#d5d8dc');
    const format = chart.key === 'throughput' ? bitsLabel : chart.key === 'backlog' ? bytesLabel : (v) => `${+v.toPrecision(3)}/s`;
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const yAxis = { ...axis, size: 78, values: (u, splits) => splits.map((v) => (v === null ? '' : format(v))) };
    if (chart.log) {
      // Only decades get a label and a grid line, and only as many as fit without overlapping.
      const decadesOnly = (u, splits) => {
        const decades = splits.filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9);
        const every = Math.max(1, Math.ceil(decades.length / Math.max(1, Math.floor(chart.height / 30))));
        return splits.map((v) => {
          const i = decades.indexOf(v);
          return i >= 0 && (decades.length - 1 - i) % every === 0 ? v : null;
        });
      };
      yAxis.filter = decadesOnly;
      yAxis.grid = { ...axis.grid, filter: decadesOnly };
      yAxis.ticks = { ...axis.ticks, filter: decadesOnly };
    }
    // Whole seconds before now, spaced so the labels never overlap.
    const xAxis = { ...axis, space: 55, incrs: [1, 2, 5, 10, 15, 20, 30, 60, 120], values: (u, splits) => {
      const now = this.times[this.times.length - 1];
      return splits.map((t) => (Math.round(t - now) === 0 ? 'now' : `${Math.round(t - now)} s`));
    } };
    const scales = { x: { time: false } };
    scales.y = chart.log
      ? { distr: 3, log: 10, range: (u, min, max) => (min === null || max === null ? [1e3, 1e10]
        : [10 ** Math.floor(Math.log10(min)), 10 ** Math.max(Math.ceil(Math.log10(max)), Math.floor(Math.log10(min)) + 1)]) }
      : { range: (u, min, max) => [0, Math.max(1, (max || 0) * 1.1)] };
    return {
      width: this.width(),
      height: chart.height,
      scales,
      series: [{ value: (u, t) => (t === null ? '' : `${Math.round(t - this.times[this.times.length - 1])} s`) }]
        .concat(labels.map((label) => ({ label, stroke: this.colour(label), width: 2, spanGaps: false,
          value: (u, v) => (v === null ? '–' : format(v)) }))),
      axes: [xAxis, yAxis],
      legend: { live: false },
      cursor: { show: false },
    };
  }

  width() {
    return Math.max(160, (this.boxes.throughput.clientWidth || 480) - 4);
  }

  resize() {
    for (const chart of CHARTS) {
      const plot = this.plots[chart.key];
      if (plot) plot.uplot.setSize({ width: Math.max(160, this.boxes[chart.key].clientWidth - 4), height: chart.height });
    }
  }

  drawTree(devices) {
    const list = el('ul', 'tclab-tree-root');
    for (const dev of devices) {
      const item = el('li', 'tclab-tree-dev');
      item.append(el('strong', null, dev.dev));
      if (dev.link && dev.link.rates) {
        item.append(` — out ${rate(dev.link.rates.txBitsPerSecond)}, in ${rate(dev.link.rates.rxBitsPerSecond)}`);
      }
      item.append(this.devTree(dev));
      for (const raw of dev.unparsed) {
        const box = el('details', 'tclab-unparsed');
        box.append(el('summary', null, `tc ${raw.what} output shown as printed (${raw.error})`));
        box.append(el('pre', null, raw.raw));
        item.append(box);
      }
      list.append(item);
    }
    this.treeBox.replaceChildren(list);
  }

  devTree(dev) {
    const ul = el('ul');
    const rootQdisc = dev.qdiscs.find((q) => q.parent === 'root');
    const rootHandle = rootQdisc ? rootQdisc.handle : null;
    // A class's parent is another class id, or for top classes "root" (tc text) or the qdisc's handle.
    const isChild = (c, parentId) => c.parent === parentId
      || (parentId.endsWith(':') && (c.parent === 'root' || c.parent === parentId.slice(0, -1)) && c.classId.startsWith(parentId));
    const childrenOf = (parentId) => {
      const items = [];
      for (const c of dev.classes.filter((c) => isChild(c, parentId))) {
        const li = el('li', 'tclab-tree-class', `class ${c.kind} ${c.classId}${c.rateBitsPerSecond ? ` rate ${rate(c.rateBitsPerSecond)}` : ''}${c.ceilBitsPerSecond ? ` ceil ${rate(c.ceilBitsPerSecond)}` : ''} — ${counters(c)}`);
        const sub = el('ul');
        filterItems('egress', c.classId).forEach((x) => sub.append(x));
        childrenOf(c.classId).forEach((x) => sub.append(x));
        for (const q of dev.qdiscs.filter((q) => q.parent === c.classId || (c.leaf && q.handle === c.leaf))) sub.append(qdiscItem(q));
        if (sub.childElementCount) li.append(sub);
        items.push(li);
      }
      return items;
    };
    // Filters hang under the qdisc or class they are attached to; ingress ones under the ingress qdisc.
    const filterItems = (hook, attachedTo) => dev.filters
      .filter((f) => f.hook === hook && (hook === 'ingress' || f.parent === attachedTo || (!f.parent && attachedTo === rootHandle)))
      .map((f) => {
        const target = f.redirectDev ? ` → redirect to ${f.redirectDev}` : f.flowid ? ` → class ${f.flowid}` : '';
        return el('li', 'tclab-tree-filter', `filter ${f.kind} pref ${f.pref} ${(f.matches || []).join(' ')}${target}`);
      });
    const qdiscItem = (q) => {
      const li = el('li', 'tclab-tree-qdisc', `qdisc ${q.kind} ${q.handle} — ${counters(q)}`);
      const sub = el('ul');
      const hook = q.parent === 'ingress' ? 'ingress' : 'egress';
      filterItems(hook, q.handle).forEach((x) => sub.append(x));
      if (q.parent !== 'ingress') childrenOf(q.handle).forEach((x) => sub.append(x));
      if (sub.childElementCount) li.append(sub);
      return li;
    };
    for (const q of dev.qdiscs.filter((q) => q.parent === 'root' || q.parent === 'ingress')) ul.append(qdiscItem(q));
    return ul;
  }

  notice(text) {
    this.noticeBox.textContent = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.noticeBox.textContent = ''; }, 10000);
  }

  /** The node's CPU notice, or null when it no longer holds its CPU at its limit. */
  cpu(text) {
    if (this.cpuBox.textContent !== (text || '')) this.cpuBox.textContent = text || '';
    this.cpuBox.hidden = !text;
  }
}

/** The statistics socket of a lab, feeding one NodeStats per node. */
export class LabStats {
  constructor(containers, labId) {
    this.labId = labId;
    this.nodes = new Map(Object.entries(containers).map(([node, box]) => [node, new NodeStats(box, node)]));
    this.latency = new LatencyPlots(containers);
    this.backoff = 500;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/ws/labs/${encodeURIComponent(this.labId)}/stats`);
    socket.onopen = () => { this.backoff = 500; };
    socket.onmessage = (event) => this.message(event.data);
    socket.onclose = (event) => {
      this.socket = null;
      if (this.disposed || (event.code >= 4000 && event.code < 5000)) return;
      this.timer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    };
    this.socket = socket;
  }

  message(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (e) {
      return;
    }
    if (message.type === 'probe' || message.type === 'probe-notice') {
      this.latency.message(message);
      return;
    }
    const view = this.nodes.get(message.node);
    if (message.type === 'history') this.history(message.samples || []);
    else if (message.type === 'sample' && view) view.sample(message);
    else if ((message.type === 'notice' || message.type === 'backlog-reset') && view) {
      view.notice(`${message.node}: ${message.message}`);
    }
    else if (message.type === 'cpu' && view) view.cpu(message.message);
    else if (message.type === 'error') this.nodes.forEach((v) => v.notice(message.message));
  }

  /** The recent past of every node, from the server, before its live samples. */
  history(samples) {
    for (const [node, view] of this.nodes) view.replay(samples.filter((s) => s.type === 'sample' && s.node === node));
  }

  dispose() {
    this.disposed = true;
    this.nodes.forEach((view) => view.resizer.disconnect());
    this.latency.dispose();
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
  }
}
