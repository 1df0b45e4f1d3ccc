// What the lesson page knows about the learner's running lab for this lesson, shared by the page scripts. Three
// sources: the lab panel's `tclab:lab` event on document (detail {status, id, expiresAt, endsAt}) the moment it starts or
// stops a lab; the server's `tclab:notice` pushes (the workshop socket, see workshop/event-banner.js: the lab ended,
// the host gave it more time), after which it asks again at once; and a poll of GET /api/labs every 4 s for the rest.
// Listeners get the running lab ({id, expiresAt, ...}) or null, on every news, polled or announced.
import { myLabs } from '../api.js';

const POLL_MS = 4000;
const lesson = document.getElementById('lab-panel')?.dataset.lesson;
const listeners = [];
let current = null;
// Counts announcements, so that a poll answered after one (with the state from before it) is ignored.
let announcements = 0;

/** The learner's labs as the page loaded them: the lab panel resumes from this answer, so it is asked for once. */
export const labsAtLoad = lesson ? myLabs() : Promise.resolve([]);

export function onLabChange(listener) {
  listeners.push(listener);
  listener(current);
}

function publish(lab) {
  current = lab?.status === 'running' ? lab : null;
  for (const listener of listeners) listener(current);
}

async function poll(answer = myLabs()) {
  const asked = announcements;
  try {
    const labs = await answer;
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
  document.addEventListener('tclab:notice', (event) => {
    if (event.detail.lesson === lesson) poll();
  });
  poll(labsAtLoad);
  setInterval(poll, POLL_MS);
}
