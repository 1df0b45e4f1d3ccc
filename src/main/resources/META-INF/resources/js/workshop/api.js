// JSON calls to the workshop APIs: every state change is a JSON request; an error answer's sentence is thrown.
export async function call(method, url, body) {
  const options = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  // Every state change is sent as JSON, even one without fields, so a JSON-only web edge lets it through.
  if (body === undefined && method !== 'GET') {
    body = {};
  }
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  if (response.status === 204) {
    return null;
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error(data?.error || `The server answered ${response.status}; try again.`);
  }
  return data;
}

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
