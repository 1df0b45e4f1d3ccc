// Host sign-in: a JSON request; the answer sets the host session cookie.
import { call } from '../api.js';
import { showError } from './show.js';

const form = document.getElementById('sign-in-form');
const error = document.getElementById('sign-in-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await call('POST', '/api/host/session', { name: form.elements.name.value, password: form.elements.password.value });
    window.location.assign('/host');
  } catch (e) {
    showError(error, e);
  }
});
