// What the lesson page knows about the learner's running lab for this lesson, shared by the page scripts. Two
// sources: the lab panel's `tclab:lab` event on document (detail {status, id, expiresAt, endsAt}) the moment it starts or
// stops a lab, and a poll of GET /api/labs every 4 s for everything else (idle stops, other tabs, expiry times).
// Listeners get the running lab ({id, expiresAt, ...}) or null, on every news, polled or announced.
import { myLabs } from '../api.js';

const POLL_MS = 4000;
const lesson = document.getElementById('lab-panel')?.dataset.lesson;
const listeners = [];
let current = null;
// Counts announcements, so that a poll answered after one (with the state from before it) is ignored.
let announcements = 0;

export function onLabChange(listener) {
  listeners.push(listener);
  listener(current);
}

function publish(lab) {
  current = lab?.status === 'running' ? lab : null;
  for (const listener of listeners) listener(current);
}

async function poll() {
  const asked = announcements;
  try {
    const labs = await myLabs();
    if (asked === announcements) publish(labs.find((lab) => lab.lesson === lesson && lab.status === 'running'));
  } catch {
    // Unreachable for a moment: keep what is known; the next poll or a Check press will say more.
  }
}

if (lesson) {
  document.addEventListener('tclab:lab', (event) => {
    announcements++;
    publish(event.detail);
  });
  poll();
  setInterval(poll, POLL_MS);
}
