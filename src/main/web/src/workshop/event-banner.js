// On a learner's pages: the workshop they joined (its name, time left, the host's messages). Nothing shows for
// self-paced use. The server pushes the workshop over the /ws/workshop socket when the page opens and again the
// moment the host broadcasts or closes it; the time left is recounted every 10 s against the server's clock.
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
  meta.textContent = ` · you are ${mine.displayName}${mine.endsAt ? ` · ${timeLeft(mine.endsAt, Date.now() - skew)}` : ''}`
    + (mine.status === 'closed' ? ' · the workshop is closed' : '');
  const messages = document.createElement('ul');
  messages.className = 'workshop-messages';
  for (const m of mine.messages.slice(-3)) {
    const li = document.createElement('li');
    li.textContent = `${new Date(m.sentAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} ${m.text}`;
    messages.append(li);
  }
  banner.replaceChildren(title, meta, messages);
  banner.hidden = false;
}

function connect() {
  const socket = new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/workshop`);
  socket.addEventListener('message', (message) => {
    mine = JSON.parse(message.data);
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
