// The workshop form's fields (templates/WorkshopPages/eventFields.html), shared by the new-workshop form and the
// dashboard's Edit: the ticked lessons in the order shown (Up and Down move one), read as the API's draft, and filled
// from a kept workshop.

/** Up and Down move a lesson in the list; the class takes the ticked ones in that order. */
export function orderable(form) {
  form.querySelector('.lesson-order').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-move]');
    if (!button) return;
    const item = button.closest('li');
    const other = button.dataset.move === '-1' ? item.previousElementSibling : item.nextElementSibling;
    if (!other) return;
    if (button.dataset.move === '-1') other.before(item); else other.after(item);
    button.focus();
  });
}

/**
 * "Add track" ticks the chosen track's lessons and puts them, in the track's order, after the lessons already ticked
 * (a lesson of the track that was ticked moves there too).
 */
export function addsTracks(form) {
  const button = form.querySelector('[data-add-track]');
  if (!button) return;
  button.addEventListener('click', () => {
    const option = form.querySelector('.track-choice').selectedOptions[0];
    const slugs = option.dataset.lessons.split(/\s+/).filter(Boolean);
    const list = form.querySelector('.lesson-order');
    const items = slugs.map((slug) => list.querySelector(`li[data-lesson="${CSS.escape(slug)}"]`)).filter(Boolean);
    const ticked = [...list.children].filter((li) => li.querySelector('input').checked && !items.includes(li));
    let anchor = ticked[ticked.length - 1] || null;
    for (const item of items) {
      if (anchor) anchor.after(item); else list.prepend(item);
      item.querySelector('input').checked = true;
      anchor = item;
    }
  });
}

function instant(value) {
  return value ? new Date(value).toISOString() : null;
}

function number(value) {
  return value === '' ? null : Number(value);
}

// datetime-local wants the browser's local time without a zone.
function local(value) {
  if (!value) return '';
  const d = new Date(value);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form as the API's workshop draft (POST /api/host/events, PUT /api/host/events/{id}). */
export function draft(form) {
  const f = form.elements;
  return {
    title: f.title.value,
    lessons: [...form.querySelectorAll('input[name=lessons]:checked')].map((box) => box.value),
    seatCap: number(f.seatCap.value),
    idleTimeoutMinutes: number(f.idleTimeoutMinutes.value),
    lifetimeMinutes: number(f.lifetimeMinutes.value),
    pooledLabs: number(f.pooledLabs.value),
    opensAt: instant(f.opensAt.value),
    closesAt: instant(f.closesAt.value),
  };
}

/** Fills the form with a kept workshop: its lessons ticked and first, in its order. */
export function fill(form, event) {
  const f = form.elements;
  f.title.value = event.title;
  f.seatCap.value = event.seatCap;
  // Durations come as ISO-8601 (PT45M); the form counts minutes.
  f.idleTimeoutMinutes.value = minutes(event.idleTimeout);
  f.lifetimeMinutes.value = minutes(event.lifetime);
  f.pooledLabs.value = event.pooledLabs;
  f.opensAt.value = local(event.opensAt);
  f.closesAt.value = local(event.closesAt);
  const list = form.querySelector('.lesson-order');
  for (const slug of [...event.lessons].reverse()) {
    const item = list.querySelector(`li[data-lesson="${CSS.escape(slug)}"]`);
    if (item) list.prepend(item);
  }
  for (const box of form.querySelectorAll('input[name=lessons]')) box.checked = event.lessons.includes(box.value);
}

function minutes(duration) {
  if (typeof duration === 'number') return Math.round(duration / 60);
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(duration || '');
  return m ? Number(m[1] || 0) * 60 + Number(m[2] || 0) : '';
}
