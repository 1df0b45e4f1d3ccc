// Tells the learner, next to the lab panel's buttons, when their running lab will be stopped for being idle. Looking
// at the page does not postpone it; typing in a terminal or pressing Check does, which the next poll shows.
import { onLabChange } from './lab-state.js';
import { clock } from '../dom.js';

const note = document.getElementById('lab-expiry');

// endsAt is the lab's end of life however busy (a workshop's lifetime or closing time, or the server's); when it
// comes before the idle expiry, expiresAt is it, and the note says so instead of promising more by typing.
function expiryText(expiresAt, endsAt, now = new Date()) {
  const at = new Date(expiresAt);
  const minutes = Math.max(1, Math.ceil((at - now) / 60000));
  if (endsAt && new Date(endsAt) <= at) {
    return `Stops at ${clock(at)}, in ${minutes} minute${minutes === 1 ? '' : 's'}: the end of this lab's time.`;
  }
  return `Stops after ${minutes} idle minute${minutes === 1 ? '' : 's'} (about ${clock(at)}) unless you use it.`;
}

if (note) {
  onLabChange((lab) => {
    note.hidden = !lab?.expiresAt;
    note.textContent = lab?.expiresAt ? expiryText(lab.expiresAt, lab.endsAt) : '';
  });
}
