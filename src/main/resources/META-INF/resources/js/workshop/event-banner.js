// On a learner's pages: the workshop they joined (its name, time left, the host's messages). Nothing shows for
// self-paced use. Polled every 5 s; the time left is recounted every 30 s in between.
import { timeLeft } from './api.js';

const banner = document.getElementById('workshop-banner');
let mine = null;

function render() {
  if (!mine) {
    banner.hidden = true;
    return;
  }
  const title = document.createElement('strong');
  title.textContent = mine.title;
  const meta = document.createElement('span');
  meta.className = 'muted';
  meta.textContent = ` · you are ${mine.displayName}${mine.endsAt ? ` · ${timeLeft(mine.endsAt)}` : ''}`
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

async function poll() {
  try {
    const response = await fetch('/api/workshop/mine', { headers: { Accept: 'application/json' } });
    mine = response.status === 200 ? await response.json() : null;
    render();
  } catch {
    // Offline for a moment: keep what is shown.
  }
}

if (banner) {
  poll();
  setInterval(poll, 5000);
  setInterval(render, 30000);
}
