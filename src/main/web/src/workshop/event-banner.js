// On a learner's pages: the workshop they joined (its name, time left, the host's messages). Nothing shows for
// self-paced use. The server pushes the workshop over the /ws/workshop socket when the page opens and again the
// moment the host broadcasts, changes or closes it; the time left is recounted every 10 s against the server's clock.
// The host's messages to this learner alone stay (the server keeps them) until the learner presses "Got it".
// The same socket carries {"notice": ...} frames about the learner's labs (ended, extended, watched), which go on to
// the lesson page's scripts as a `tclab:notice` event on document.
import { call } from '../api.js';
import { clock } from '../dom.js';
import { timeLeft } from './show.js';

const banner = document.getElementById('workshop-banner');
let mine = null;
// How far this browser's clock is ahead of the server's, so the time left does not depend on it.
let skew = 0;
let retry = 1000;

function render() {
  if (!mine) {
    banner.hidden = true;
    return;
  }
  const title = document.createElement('strong');
  title.textContent = mine.title;
  const meta = document.createElement('span');
  meta.className = 'muted';
  meta.textContent = ` · you are ${mine.displayName} · ${when()}`;
  const messages = document.createElement('ul');
  messages.className = 'workshop-messages';
  for (const m of mine.messages.slice(-3)) {
    const li = document.createElement('li');
    li.textContent = `${clock(m.sentAt)} ${m.text}`;
    messages.append(li);
  }
  for (const m of mine.personal) messages.append(personal(m));
  banner.replaceChildren(title, meta, messages);
  banner.hidden = false;
}

// A message from the host to this learner, with the button that marks it read (on every page of theirs).
function personal(message) {
  const li = document.createElement('li');
  li.className = 'workshop-personal';
  li.dataset.message = message.id;
  const text = document.createElement('span');
  text.textContent = `${clock(message.sentAt)} To you: ${message.text} `;
  const read = document.createElement('button');
  read.type = 'button';
  read.className = 'workshop-read';
  read.textContent = 'Got it';
  read.setAttribute('aria-label', `Mark read: ${message.text}`);
  read.addEventListener('click', async () => {
    read.disabled = true;
    try {
      await call('POST', `/api/workshop/mine/messages/${message.id}/read`);
      mine.personal = mine.personal.filter((m) => m.id !== message.id);
      render();
    } catch (error) {
      read.disabled = false;
      text.textContent = `${clock(message.sentAt)} To you: ${message.text} (not marked read: ${error.message}) `;
    }
  });
  li.append(text, read);
  return li;
}

// Where the workshop stands: closed (by the host, or at its closing time), not open yet, or the time it has left.
function when() {
  if (mine.status === 'closed') {
    return mine.closedAt ? `your host closed the workshop at ${clock(mine.closedAt)}`
      : `the workshop ended at ${clock(mine.endsAt)}`;
  }
  if (mine.status === 'scheduled') return `the workshop opens at ${clock(mine.opensAt)}`;
  return mine.endsAt ? timeLeft(mine.endsAt, Date.now() - skew) : 'open';
}

function connect() {
  const socket = new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/workshop`);
  socket.addEventListener('message', (message) => {
    const frame = JSON.parse(message.data);
    if (frame && frame.notice) {
      document.dispatchEvent(new CustomEvent('tclab:notice', { detail: frame.notice }));
      return;
    }
    mine = frame;
    if (mine) skew = Date.now() - new Date(mine.now).getTime();
    retry = 1000;
    render();
  });
  // Gone (a restart, the network): keep what is shown and connect again, waiting longer each time up to 30 s.
  socket.addEventListener('close', () => {
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

if (banner) {
  connect();
  setInterval(render, 10000);
}
