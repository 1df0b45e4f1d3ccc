// The JSON API (/api/...), with the server's own error sentences surfaced to the learner.

export class ApiError extends Error {
  /** {@code status} and {@code data}: the HTTP status and JSON body of a refusal, when the server answered one. */
  constructor(message, status = 0, data = null) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/** A JSON API call; throws ApiError with the server's own sentence (or a plain one) when it fails. */
export async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      // Every change goes as JSON: tclab refuses other types (docs/api.md, "State changes").
      headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
    });
  } catch (e) {
    throw new ApiError('The tclab server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    // An answer without JSON (a proxy error page, say) is reported by its status below.
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `The server answered ${response.status} ${response.statusText}.`;
    const problems = data && Array.isArray(data.problems) && data.problems.length ? ` (${data.problems.join('; ')})` : '';
    throw new ApiError(message + problems, response.status, data);
  }
  return data;
}

// replace: stop the learner's running lab of another lesson first (one lab per learner, docs/api.md).
export const startLab = (lesson, replace = false) => call('POST', '/api/labs', replace ? { lesson, replace } : { lesson });
export const getLab = (id) => call('GET', `/api/labs/${encodeURIComponent(id)}`);
export const myLabs = () => call('GET', '/api/labs');
export const stopLab = (id) => call('DELETE', `/api/labs/${encodeURIComponent(id)}`);
