// What the workshop pages show: a refusal's sentence in its place, and the time a workshop has left.
export function showError(element, error) {
  element.textContent = error ? error.message || String(error) : '';
  element.hidden = !error;
}

export function timeLeft(endsAt, now = Date.now()) {
  if (!endsAt) {
    return '';
  }
  const minutes = Math.round((new Date(endsAt) - now) / 60000);
  if (minutes <= 0) {
    return 'Time is up.';
  }
  const h = Math.floor(minutes / 60);
  return `${h > 0 ? `${h} h ` : ''}${minutes % 60} min left`;
}
