// Live tc statistics from /ws/labs/{lab}/stats: per node, uPlot charts (throughput, backlog, drops per qdisc) and
// the qdisc/class/filter tree. tc output the server could not parse is shown raw.
import uPlot from 'uplot';

const HISTORY = 120;
const MAX_BACKOFF_MS = 15000;

const CHARTS = [
  { key: 'throughput', title: 'Throughput (Mbit/s)', value: (q) => (q.rates ? q.rates.bitsPerSecond / 1e6 : null) },
  { key: 'backlog', title: 'Backlog (KB)', value: (q) => q.counters.backlogBytes / 1000 },
  { key: 'drops', title: 'Drops per second', value: (q) => (q.rates ? q.rates.dropsPerSecond : null) },
];
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
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
    this.root.append(this.noticeBox, this.chartBox, this.treeBox);
    container.append(this.root);
    this.times = [];
    // Per chart: series label -> values, one per sample time.
    this.series = Object.fromEntries(CHARTS.map((c) => [c.key, new Map()]));
    this.plots = {};
  }

  sample(sample) {
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
        put('throughput', `${dev.dev} sent`, dev.link.rates ? dev.link.rates.txBitsPerSecond / 1e6 : null);
        put('throughput', `${dev.dev} received`, dev.link.rates ? dev.link.rates.rxBitsPerSecond / 1e6 : null);
      }
      for (const q of dev.qdiscs) {
        if (q.kind === 'noqueue') continue;
        for (const chart of CHARTS) put(chart.key, `${dev.dev} ${q.handle} ${q.kind}`, chart.value(q));
      }
    }
    for (const chart of CHARTS) {
      for (const [label, values] of this.series[chart.key]) {
        if (!seen[chart.key].has(label)) values.push(null);
        if (this.times.length > HISTORY) values.shift();
        if (!seen[chart.key].has(label) && values.every((v) => v === null)) this.series[chart.key].delete(label);
      }
    }
    if (this.times.length > HISTORY) this.times.shift();
    CHARTS.forEach((chart) => this.draw(chart));
    this.drawTree(sample.devices);
    this.root.dataset.samples = String((Number(this.root.dataset.samples) || 0) + 1);
  }

  draw(chart) {
    const series = this.series[chart.key];
    const data = [this.times.slice()].concat([...series.values()].map((values) => values.slice()));
    const labels = [...series.keys()].join('|');
    const plot = this.plots[chart.key];
    if (plot && plot.labels === labels) {
      plot.uplot.setData(data);
      return;
    }
    let box = this.chartBox.querySelector(`.tclab-chart-${chart.key}`);
    if (!box) {
      box = el('div', `tclab-chart tclab-chart-${chart.key}`);
      this.chartBox.append(box);
    }
    if (plot) plot.uplot.destroy();
    box.replaceChildren();
    const lines = [{}].concat([...series.keys()].map((label, i) => ({
      label, stroke: COLORS[i % COLORS.length], width: 2, spanGaps: false,
    })));
    this.plots[chart.key] = { labels, uplot: new uPlot({ title: chart.title, width: this.width(), height: 160,
      series: lines, axes: [{}, { size: 60 }], legend: { live: false } }, data, box) };
  }

  width() {
    return Math.max(280, Math.min(520, (this.root.clientWidth || 900) / 3 - 12));
  }

  drawTree(devices) {
    const list = el('ul', 'tclab-tree-root');
    for (const dev of devices) {
      const item = el('li', 'tclab-tree-dev');
      item.append(el('strong', null, dev.dev));
      if (dev.link && dev.link.rates) {
        item.append(` — sent ${rate(dev.link.rates.txBitsPerSecond)}, received ${rate(dev.link.rates.rxBitsPerSecond)}`);
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
}

/** The statistics socket of a lab, feeding one NodeStats per node. */
export class LabStats {
  constructor(containers, labId) {
    this.labId = labId;
    this.nodes = new Map(Object.entries(containers).map(([node, box]) => [node, new NodeStats(box, node)]));
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
    const view = this.nodes.get(message.node);
    if (message.type === 'sample' && view) view.sample(message);
    else if ((message.type === 'notice' || message.type === 'backlog-reset') && view) {
      view.notice(`${message.node}: ${message.message}`);
    }
    else if (message.type === 'error') this.nodes.forEach((v) => v.notice(message.message));
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
  }
}
