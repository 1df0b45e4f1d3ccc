// The live dashboard: the class's state arrives every 1.5 s over server-sent events and is written into the page in
// place: each learner's row is made once (keyed by learner id) and only its changed cells' text and classes are set,
// so a focused button keeps the focus and a click held across an update still lands; the table keeps the host's
// sort and filter across updates. Every help button is a JSON request; its outcome is in the host actions list.
import { call } from '../api.js';
import { clock, el } from '../dom.js';
import { showError, timeLeft } from './show.js';
import { addsTracks, draft, fill, orderable } from './event-form.js';
// The learner's own rendering of a check result (verdict, each expectation measured against expected, with units),
// so the host reads the last check as the learner did.
import { renderCheckResult } from '../page/checks.js';

const root = document.getElementById('dashboard');
const eventId = root.dataset.event;
const base = `/api/host/events/${encodeURIComponent(eventId)}`;
const tbody = document.querySelector('#learners tbody');
const tally = document.querySelector('#step-tally tbody');
const filter = document.getElementById('learner-filter');
const broadcastError = document.getElementById('broadcast-error');
let view = null;
let sortKey = 'name';
let ascending = true;

/** A cell or item with its text (the shared el(), arguments in the order this table reads best). */
const text = (tag, value, className) => el(tag, className, value);

function ago(at) {
  if (!at) {
    return '';
  }
  const seconds = Math.max(0, Math.round((new Date(view.at) - new Date(at)) / 1000));
  return seconds < 60 ? `${seconds} s ago` : `${Math.floor(seconds / 60)} min ago`;
}

function duration(since) {
  if (!since) {
    return '';
  }
  const seconds = Math.max(0, Math.round((new Date(view.at) - new Date(since)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
}

/** Sets a node's text only when it differs, so an unchanged cell is not touched (nor a selection in it lost). */
function setText(node, value) {
  const next = value === undefined || value === null ? '' : String(value);
  if (node.textContent !== next) node.textContent = next;
}

/** Sets a node's class only when it differs. */
function setClass(node, className) {
  if (node.className !== className) node.className = className;
}

/**
 * Puts `nodes` in `parent` in this order: those no longer wanted are removed first, then only those out of
 * place are moved. A row that stays where it was is never taken out of the document, so a focused button in it keeps
 * the focus and a mouse button held on it still makes its click.
 */
function arrange(parent, nodes) {
  const wanted = new Set(nodes);
  for (const node of [...parent.childNodes]) {
    if (!wanted.has(node)) node.remove();
  }
  let at = parent.firstChild;
  for (const node of nodes) {
    if (node === at) {
      at = at.nextSibling;
    } else {
      parent.insertBefore(node, at);
    }
  }
}

const HELP = [['Last check', 'check'], ['Message', 'message'], ['Extend', 'extend'], ['Stop', 'stop'],
  ['Reset', 'reset']];

function helpButton(label, row) {
  const button = text('button', label, 'secondary');
  button.type = 'button';
  button.dataset.learner = row.learnerId;
  button.dataset.name = row.name;
  return button;
}

/** The Help cell's buttons: the five actions made once, a Shadow button per node of the running lab. */
function updateHelp(cell, row) {
  if (!cell.firstChild) {
    for (const [label, action] of HELP) {
      const button = helpButton(label, row);
      button.dataset.action = action;
      button.setAttribute('aria-label', `${label}: ${row.name}`);
      cell.append(button);
    }
  }
  // Opened by the host terminal view (/app/host-terminal.js); kept as long as the lab and its node are.
  const shadows = new Map([...cell.querySelectorAll('button[data-shadow]')].map((b) => [b.dataset.shadow, b]));
  const wanted = row.nodes.map((node) => {
    const key = `${row.labId}/${node}`;
    let button = shadows.get(key);
    if (!button) {
      button = helpButton(`Shadow ${node}`, row);
      button.dataset.shadow = key;
      button.setAttribute('aria-label', `Shadow ${node}: ${row.name}`);
    }
    return button;
  });
  arrange(cell, [...cell.querySelectorAll('button[data-action]'), ...wanted]);
}

// Each learner's row, made once and updated in place by learner id (never redrawn: focus and clicks survive).
const rowsById = new Map();
const COLUMNS = ['name', 'lesson', 'step', 'steps', 'quizzes', 'lab', 'activity', 'onStep', 'failure'];

function rowOf(r) {
  let entry = rowsById.get(r.learnerId);
  if (!entry) {
    const tr = document.createElement('tr');
    tr.dataset.learner = r.learnerId;
    const cells = Object.fromEntries(COLUMNS.map((column) => [column, document.createElement('td')]));
    const help = el('td', 'help');
    tr.append(...Object.values(cells), help);
    entry = { tr, cells, help };
    rowsById.set(r.learnerId, entry);
  }
  const { cells } = entry;
  setClass(cells.name, 'name');
  setText(cells.name, r.name);
  setText(cells.lesson, r.lesson);
  setText(cells.step, r.currentStepTitle ?? 'all passed');
  setClass(cells.steps, 'steps');
  setText(cells.steps, `${r.stepsPassed}/${r.stepsTotal}`);
  setClass(cells.quizzes, 'quizzes');
  setText(cells.quizzes, `${r.quizzesRight}/${r.quizzesTotal}`);
  setClass(cells.lab, `lab-${r.labStatus}`);
  setText(cells.lab, r.labStatus);
  setText(cells.activity, ago(r.lastActivity));
  setText(cells.onStep, duration(r.onStepSince));
  setClass(cells.failure, 'failure');
  setText(cells.failure, r.lastFailure);
  updateHelp(entry.help, r);
  return entry.tr;
}

function renderRows() {
  const needle = filter.value.trim().toLowerCase();
  const rows = view.learners.filter((r) => !needle || [r.name, r.lesson, r.currentStepTitle, r.labStatus, r.lastFailure]
    .some((v) => (v ?? '').toLowerCase().includes(needle)));
  rows.sort((a, b) => {
    const x = a[sortKey] ?? '';
    const y = b[sortKey] ?? '';
    const diff = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return ascending ? diff : -diff;
  });
  const present = new Set(view.learners.map((r) => r.learnerId));
  for (const id of rowsById.keys()) {
    if (!present.has(id)) rowsById.delete(id);
  }
  arrange(tbody, rows.map(rowOf));
  setText(document.getElementById('learner-count'), `(${view.learners.length})`);
}

/**
 * A table body or list kept in step with `items` by key: one element per key (a repeated key is told apart by
 * its count), made once and its content set in place.
 */
function keyed(parent, items, key, make, update) {
  const byKey = new Map([...parent.children].map((node) => [node.dataset.key, node]));
  const seen = new Map();
  arrange(parent, items.map((item) => {
    const base = key(item);
    const n = (seen.get(base) || 0) + 1;
    seen.set(base, n);
    const id = `${base}\n${n}`;
    let node = byKey.get(id);
    if (!node) {
      node = make(item);
      node.dataset.key = id;
    }
    update(node, item);
    return node;
  }));
}

function render() {
  setText(document.getElementById('event-status'), view.status);
  setText(document.getElementById('time-left'), view.status === 'closed'
    ? `Closed at ${clock(view.endsAt)}.` : timeLeft(view.endsAt));
  // The whole server's state, as its operator gauges read it: a full server or a dead engine explains a stuck class.
  const server = view.server;
  const state = document.getElementById('server-state');
  setText(state, `Server: ${server.running} of ${server.maxRunning} labs running · ${server.starting} starting`
    + ` · ${server.queued} queued · ${server.engineReachable ? 'engine reachable'
      : 'Docker engine not reachable: labs cannot start'}`);
  state.classList.toggle('workshop-error', !server.engineReachable);
  keyed(tally, view.steps, (s) => `${s.lesson}\n${s.stepId}`, () => {
    const tr = document.createElement('tr');
    tr.append(el('td'), el('td'), el('td'));
    return tr;
  }, (tr, s) => {
    const [step, passed, stuck] = tr.children;
    setText(step, `${s.lesson} · ${s.title}`);
    setText(passed, s.passed);
    setText(stuck, s.stuck);
    setClass(stuck, s.stuck ? 'stuck' : '');
  });
  renderRows();
  const actions = document.getElementById('actions');
  keyed(actions, view.actions, (a) => `${a.doneAt}\n${a.host}\n${a.action}\n${a.detail}`, () => el('li'),
    (li, a) => setText(li, `${clock(a.doneAt)} · ${a.host} · ${a.action} · ${a.detail}`));
}

function connect() {
  const source = new EventSource(`${base}/live`);
  source.onmessage = (message) => {
    view = JSON.parse(message.data);
    render();
  };
}

document.querySelectorAll('#learners [data-sort]').forEach((button) => button.addEventListener('click', () => {
  ascending = sortKey === button.dataset.sort ? !ascending : true;
  sortKey = button.dataset.sort;
  if (view) {
    renderRows();
  }
}));
filter.addEventListener('input', () => view && renderRows());

/** A measurement's raw output, pretty-printed when it is JSON (iperf3 -J, tc -j), else as it came. */
function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function rawOutput(raw) {
  const box = el('details', 'check-raw-output');
  box.append(el('summary', null, 'Raw output'));
  let outputs;
  try {
    outputs = JSON.parse(raw || '{}');
  } catch {
    outputs = { output: raw };
  }
  const names = Object.keys(outputs);
  if (!names.length) box.append(el('p', 'muted', 'No raw output was kept for this check.'));
  for (const name of names) {
    box.append(el('h4', null, name), el('pre', 'check-raw', pretty(outputs[name])));
  }
  return box;
}

function showLastCheck(name, last) {
  const body = document.getElementById('check-body');
  document.getElementById('check-title').textContent = `${name}’s last check`;
  body.replaceChildren(el('p', 'muted', last.detail));
  for (const result of last.results) {
    body.append(renderCheckResult(JSON.parse(result.summary)), rawOutput(result.rawOutput));
  }
  document.getElementById('check-dialog').showModal();
}

// What Stop and Reset take from the learner, asked before either is done (as Close asks).
const CONFIRM = {
  stop: (name) => `Stop ${name}’s lab? Its containers and whatever ${name} configured in them are removed; `
    + 'their passed steps stay. They can start it again.',
  reset: (name) => `Reset ${name}’s lab? It is replaced by a fresh one: whatever ${name} configured in it is lost; `
    + 'their passed steps stay.',
};

tbody.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) {
    return;
  }
  const ask = CONFIRM[button.dataset.action];
  if (ask && !window.confirm(ask(button.dataset.name))) {
    return;
  }
  const learner = encodeURIComponent(button.dataset.learner);
  try {
    if (button.dataset.action === 'message') {
      const message = window.prompt(`Message to ${button.dataset.name} alone (it shows on their page at once):`);
      if (message) await call('POST', `${base}/learners/${learner}/message`, { text: message });
    } else if (button.dataset.action === 'check') {
      showLastCheck(button.dataset.name, await call('GET', `${base}/learners/${learner}/last-check`));
    } else {
      view = await call('POST', `${base}/learners/${learner}/${button.dataset.action}`, {});
      render();
    }
  } catch (e) {
    showError(broadcastError, e);
  }
});

document.getElementById('broadcast-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = document.getElementById('broadcast-text');
  try {
    await call('POST', `${base}/messages`, { text: input.value });
    input.value = '';
    showError(broadcastError, null);
  } catch (e) {
    showError(broadcastError, e);
  }
});

document.getElementById('close-event').addEventListener('click', async () => {
  if (window.confirm('Close the workshop? Nobody can join any more and every learner’s lab is stopped.')) {
    await call('POST', `${base}/close`, {}).then(showInfo).catch((e) => showError(broadcastError, e));
  }
});

// The workshop as kept (GET /api/host/events/{id}): the edit form's values, Reopen and Add 30 min.
const editForm = document.getElementById('edit-form');
const editError = document.getElementById('edit-error');
const addTime = document.getElementById('add-time');
const reopen = document.getElementById('reopen-event');
let info = null;
// Whether the edit form holds the workshop's values yet. Once it does, an open form keeps what the host is typing;
// before, it takes them however it is (a host may open it before they arrive).
let filled = false;

function showInfo(fresh) {
  info = fresh;
  document.getElementById('join-url').textContent = info.joinUrl;
  document.getElementById('join-code').textContent = info.event.joinCode;
  if (!filled || !editForm.closest('details').open) {
    fill(editForm, info.event);
    filled = true;
  }
  reopen.hidden = info.status !== 'closed';
  addTime.hidden = !info.event.closesAt || info.status === 'closed';
}

async function save(changes) {
  showInfo(await call('PUT', base, { ...draft(editForm), ...changes }));
}

orderable(editForm);
addsTracks(editForm);
editForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!filled) {
    // An empty form would save blanks over the workshop.
    showError(editError, new Error('The workshop is still loading: try again in a moment.'));
    return;
  }
  try {
    await save({});
    showError(editError, null);
    editForm.closest('details').open = false;
    fill(editForm, info.event);
  } catch (e) {
    showError(editError, e);
  }
});
editForm.closest('details').addEventListener('toggle', () => info && fill(editForm, info.event));
addTime.addEventListener('click', async () => {
  fill(editForm, info.event);
  const later = new Date(new Date(info.event.closesAt).getTime() + 30 * 60000).toISOString();
  await save({ closesAt: later }).catch((e) => showError(broadcastError, e));
});
reopen.addEventListener('click', async () => {
  try {
    showInfo(await call('POST', `${base}/reopen`, {}));
  } catch (e) {
    showError(broadcastError, e);
  }
});

call('GET', base).then(showInfo);
connect();
