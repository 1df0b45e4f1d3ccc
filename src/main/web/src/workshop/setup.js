// The first host account: the setup token from the server's log, a name and a password; the answer signs in.
import { call } from '../api.js';
import { showError } from './show.js';

const form = document.getElementById('setup-form');
const error = document.getElementById('setup-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await call('POST', '/api/host/setup', { token: form.elements.token.value, name: form.elements.name.value,
      password: form.elements.password.value });
    window.location.assign('/host');
  } catch (e) {
    showError(error, e);
  }
});
