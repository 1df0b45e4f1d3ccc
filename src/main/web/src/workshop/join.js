// The join page: looks up the code as it is typed (so a wrong or closed code is said at once), then joins.
import { call } from '../api.js';
import { showError } from './show.js';

const form = document.getElementById('join-form');
const code = document.getElementById('join-code');
const name = document.getElementById('join-name');
const error = document.getElementById('join-error');
const preview = document.getElementById('join-event');

async function lookUp() {
  const typed = code.value.replace(/[\s-]/g, '').toUpperCase();
  if (typed.length < 6) {
    preview.hidden = true;
    return;
  }
  try {
    const event = await call('GET', `/api/join/${encodeURIComponent(typed)}`);
    preview.textContent = `You are joining “${event.title}”.`;
    preview.hidden = false;
    showError(error, null);
  } catch (e) {
    preview.hidden = true;
    showError(error, e);
  }
}

code.addEventListener('change', lookUp);
if (code.value) {
  lookUp();
  name.focus();
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const joined = await call('POST', '/api/join', { code: code.value, name: name.value });
    window.location.assign(`/lessons/${encodeURIComponent(joined.lessons[0])}`);
  } catch (e) {
    showError(error, e);
  }
});
