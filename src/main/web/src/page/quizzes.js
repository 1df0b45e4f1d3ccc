// Quiz forms of a lesson page, answered in place: the form's choices go to the JSON quiz API and the verdict and
// explanations replace the old ones, so the page (lab terminals, plots, check results) stays as it is. Without this
// script the same forms post to the server and come back on a reloaded page. The server grades; the explanation
// HTML it sends is the lesson page's own escaped rendering of the author's markdown.
import { call } from '../api.js';

function grade(form) {
  const choices = new FormData(form).getAll('choice').map(Number);
  // The form posts to /lessons/{slug}/quizzes/{id}; the JSON API answers the same path under /api.
  return call('POST', `/api${new URL(form.action).pathname}`, { choices });
}

function explanation(item) {
  const why = document.createElement('p');
  why.className = 'quiz-why';
  const label = document.createElement('strong');
  label.textContent = item.correct ? 'Right: ' : 'Not right: ';
  // A template parses without running anything (no image loads, no handlers), should the HTML ever carry some.
  const text = document.createElement('template');
  text.innerHTML = item.whyHtml;
  why.append(label, text.content);
  return why;
}

function showVerdict(form, verdict) {
  const explained = new Map(verdict.explanations.map((item) => [item.option, item]));
  for (const input of form.querySelectorAll('input[name="choice"]')) {
    const option = input.closest('.quiz-option');
    const item = explained.get(Number(input.value));
    option.querySelector('.quiz-why')?.remove();
    option.classList.toggle('is-chosen', input.checked);
    option.classList.toggle('is-right', item?.correct === true);
    option.classList.toggle('is-wrong', item?.correct === false);
    if (item) option.append(explanation(item));
  }
  // The server words the verdict (for a pick-all quiz: how many choices are wrong, how many right ones were left out).
  say(form, verdict.message, verdict.correct ? 'is-correct' : 'is-incorrect');
}

function say(form, text, state) {
  const result = form.querySelector('.quiz-result');
  result.classList.remove('is-correct', 'is-incorrect', 'is-error');
  result.classList.add(state);
  result.textContent = text;
}

async function answer(form) {
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  form.setAttribute('aria-busy', 'true');
  try {
    showVerdict(form, await grade(form));
    document.dispatchEvent(new CustomEvent('tclab:quiz-answered'));
  } catch (error) {
    say(form, `Your answer was not graded: ${error.message}`, 'is-error');
  } finally {
    submit.disabled = false;
    form.removeAttribute('aria-busy');
  }
}

for (const form of document.querySelectorAll('form.quiz')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    answer(form);
  });
}
