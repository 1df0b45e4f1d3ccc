// The host's workshops: the list, the new-workshop form and sign-out.
import { call } from '../api.js';
import { showError } from './show.js';
import { addsTracks, draft, orderable } from './event-form.js';

const list = document.getElementById('event-list');
const form = document.getElementById('event-form');
const error = document.getElementById('event-error');

function item(info) {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = `/host/events/${encodeURIComponent(info.event.id)}`;
  link.textContent = info.event.title;
  const meta = document.createElement('span');
  meta.className = 'muted';
  meta.textContent = ` · code ${info.event.joinCode} · ${info.status} · ${info.seated}/${info.event.seatCap} joined`
    + (info.event.host ? ` · host ${info.event.host}` : '');
  li.append(link, meta);
  return li;
}

async function load() {
  const events = await call('GET', '/api/host/events');
  list.replaceChildren(...(events.length ? events.map(item) : [Object.assign(document.createElement('li'),
    { className: 'muted', textContent: 'No workshop yet: create one below.' })]));
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const created = await call('POST', '/api/host/events', draft(form));
    window.location.assign(`/host/events/${encodeURIComponent(created.event.id)}`);
  } catch (e) {
    showError(error, e);
  }
});

document.getElementById('sign-out').addEventListener('click', async () => {
  await call('DELETE', '/api/host/session', {});
  window.location.assign('/host/sign-in');
});

orderable(form);
addsTracks(form);
load().catch((e) => showError(error, e));
