// The projector view of a workshop: the join code, its QR code, the time left and how many learners work on each
// graded step (no names: the class sees it). It follows the dashboard's live stream (every 1.5 s).
import { call } from '../api.js';
import { clock, el } from '../dom.js';
import { timeLeft } from './show.js';

const root = document.getElementById('projector');
const base = `/api/host/events/${encodeURIComponent(root.dataset.event)}`;
const histogram = document.getElementById('histogram');

function render(view) {
  document.getElementById('time-left').textContent = view.status === 'closed'
    ? `Closed at ${clock(view.endsAt)}.` : timeLeft(view.endsAt);
  document.getElementById('class-size').textContent = `(${view.learners.length} joined)`;
  const on = new Map();
  for (const row of view.learners) {
    const key = row.currentStep ? `${row.lesson}\n${row.currentStep}` : 'done';
    on.set(key, (on.get(key) || 0) + 1);
  }
  const most = Math.max(1, ...on.values());
  const bars = view.steps.map((step) => [step.title, on.get(`${step.lesson}\n${step.stepId}`) || 0]);
  bars.push(['Every step passed', on.get('done') || 0]);
  histogram.replaceChildren(...bars.map(([title, count]) => {
    const item = el('li', 'histogram-row');
    const bar = el('span', 'histogram-bar');
    bar.style.width = `${(count / most) * 100}%`;
    item.append(el('span', 'histogram-label', title), el('span', 'histogram-track'), el('span', 'histogram-count', String(count)));
    item.querySelector('.histogram-track').append(bar);
    return item;
  }));
}

call('GET', base).then((info) => { document.getElementById('join-url').textContent = info.joinUrl; });
new EventSource(`${base}/live`).onmessage = (message) => render(JSON.parse(message.data));
