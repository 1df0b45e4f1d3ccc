// Tells the learner, next to the lab panel's buttons, when their running lab will be stopped for being idle. Looking
// at the page does not postpone it; typing in a terminal or pressing Check does, which the next poll shows.
import { onLabChange } from './lab-state.js';

const note = document.getElementById('lab-expiry');

function clock(date) {
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

function expiryText(expiresAt, now = new Date()) {
  const at = new Date(expiresAt);
  const minutes = Math.max(1, Math.ceil((at - now) / 60000));
  return `Stops after ${minutes} idle minute${minutes === 1 ? '' : 's'} (about ${clock(at)}) unless you use it.`;
}

if (note) {
  onLabChange((lab) => {
    note.hidden = !lab?.expiresAt;
    note.textContent = lab?.expiresAt ? expiryText(lab.expiresAt) : '';
  });
}
