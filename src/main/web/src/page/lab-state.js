// What the lesson page knows about the learner's lab for this lesson, shared by the page scripts. Three sources: the
// lab panel's `tclab:lab` event on document (detail {status, id, expiresAt, endsAt}) the moment it starts, follows,
// restarts or stops a lab; the server's `tclab:notice` pushes (the workshop socket, see workshop/event-banner.js: the
// lab ended or is restarting, the host gave it more time), after which it asks again at once; and a poll of
// GET /api/labs every 4 s for the rest. Listeners get, on every news, the running lab ({id, expiresAt, ...}) or null,
// and whether one is on its way (queued, starting, or restarting after a host's reset), so a page can say "wait"
// rather than "start".
import { myLabs } from '../api.js';

const POLL_MS = 4000;
const lesson = document.getElementById('lab-panel')?.dataset.lesson;
const listeners = [];
let current = null;
let coming = false;
const ON_ITS_WAY = ['queued', 'starting', 'restarting'];
// Counts announcements, so that a poll answered after one (with the state from before it) is ignored.
let announcements = 0;

/** The learner's labs as the page loaded them: the lab panel resumes from this answer, so it is asked for once. */
export const labsAtLoad = lesson ? myLabs() : Promise.resolve([]);

export function onLabChange(listener) {
  listeners.push(listener);
  listener(current, coming);
}

function publish(lab) {
  current = lab?.status === 'running' ? lab : null;
  coming = ON_ITS_WAY.includes(lab?.status);
  for (const listener of listeners) listener(current, coming);
}

async function poll(answer = myLabs()) {
  const asked = announcements;
  try {
    const labs = await answer;
    const mine = labs.filter((lab) => lab.lesson === lesson);
    if (asked === announcements) {
      publish(mine.find((lab) => lab.status === 'running') || mine.find((lab) => ON_ITS_WAY.includes(lab.status)));
    }
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
