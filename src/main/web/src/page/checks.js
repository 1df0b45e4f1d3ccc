// Check buttons of a lesson page: enabled while the learner's lab for this lesson runs; a press asks the server to
// measure the step in the lab, then shows every assertion with the measured and expected values. Steps that pass
// (by a press or by the server's background watch) are marked without a reload. All text is set with textContent.
import { call } from '../api.js';
import { el as element } from '../dom.js';
import { onLabChange } from './lab-state.js';

const NEEDS_LAB = 'Start the lab to check this step.';
const lesson = document.getElementById('lab-panel')?.dataset.lesson;
const buttons = [...document.querySelectorAll('button.check-run')];
let labId = null;

function resultArea(button) {
  let area = button.nextElementSibling;
  while (area && !area.classList.contains('check-result')) area = area.nextElementSibling;
  return area;
}

// The learner reads the outcome in words: the title, the author's message, measured against expected values with
// units. Paths, patterns, measurement names and raw output stay behind a "Details" disclosure.
const VERDICTS = { passed: ['✓', 'Passed'], failed: ['✗', 'Not yet'], error: ['⚠', 'Could not measure'] };

/** tc's unit suffixes as a learner reads them: 10mbit → 10 Mbit/s, 19.1 mb → 19.1 MB, 38097 Mbit/s → 38.1 Gbit/s. */
function units(text) {
  return String(text ?? '')
    .replace(/(\d)\s?([kmg])bit\b(?!\/)/gi, (m, d, p) => `${d} ${p === 'k' ? 'k' : p.toUpperCase()}bit/s`)
    .replace(/(\d)\s?([kmg])b\b/gi, (m, d, p) => `${d} ${p === 'k' ? 'k' : p.toUpperCase()}B`)
    .replace(/(\d+(?:\.\d+)?) Mbit\/s/g, (m, v) => (Number(v) >= 1000 ? `${+(Number(v) / 1000).toPrecision(3)} Gbit/s` : m));
}

/** The measured value without the technical name of a baseline it was divided by. */
function measuredWords(assertion) {
  return units(assertion.measured.replace(/\s*\([a-z_][\w.]*\)$/i, ''));
}

function expectedWords(assertion) {
  const expected = assertion.expected || '';
  if (expected.startsWith('matching /')) return 'the output the step asks for (the pattern is under Details)';
  const ratio = expected.match(/^a ratio to \S+ (.*)$/);
  if (ratio) return `${units(ratio[1])} times the baseline measured earlier`;
  return units(expected);
}

/** The result's message, unless it only restates the verdict or names internals the list below says in words. */
function messageWords(result, leaves) {
  const message = result.message || '';
  if (result.status === 'passed') {
    const held = message.match(/^Passed: (.*)$/);
    return held ? held[1].charAt(0).toUpperCase() + held[1].slice(1) : null;
  }
  const failedMeasurement = message.match(/^Measurement '[^']*' failed: (.*)$/s);
  if (failedMeasurement) return failedMeasurement[1];
  if (leaves.some((a) => message.startsWith(`${a.path} is `) || message.startsWith(`${a.path}: `))) {
    return 'The lab does not do what this step asks for yet.';
  }
  return message;
}

function details(result, leaves) {
  const box = element('details', 'check-details');
  box.append(element('summary', null, 'Details'));
  if (leaves.length) {
    const table = element('table', 'check-assertions');
    const head = table.createTHead().insertRow();
    for (const label of ['', 'value', 'measured', 'expected', 'message']) head.append(element('th', null, label));
    for (const assertion of flatten(result.assertions)) {
      const row = table.insertRow();
      row.className = assertion.passed ? 'ok' : 'bad';
      row.insertCell().textContent = assertion.passed ? '✓' : '✗';
      row.insertCell().textContent = assertion.path;
      row.insertCell().textContent = assertion.measured;
      row.insertCell().textContent = assertion.expected;
      row.insertCell().textContent = assertion.message;
    }
    box.append(table);
  }
  for (const [name, error] of Object.entries(result.errors || {})) {
    box.append(element('p', 'check-error', `${name}: ${error}`));
    if (result.raw?.[name]) box.append(element('pre', 'check-raw', result.raw[name]));
  }
  const seconds = (result.millis / 1000).toFixed(1);
  box.append(element('p', 'check-meta', `Check ${result.check}: ${result.attempts} sample${result.attempts === 1 ? '' : 's'} in ${seconds} s. Message: ${result.message || '–'}`));
  return box;
}

export function outcome(result) {
  const [symbol, word] = VERDICTS[result.status] || ['?', result.status];
  const box = element('div', `check-outcome ${result.status}`);
  const verdict = element('p', 'check-verdict');
  verdict.append(element('span', 'check-symbol', symbol), ` ${word}`);
  if (result.title) verdict.append(`: ${result.title.charAt(0).toUpperCase()}${result.title.slice(1)}`);
  box.append(verdict);
  const leaves = flatten(result.assertions).filter((a) => !a.children?.length);
  const message = messageWords(result, leaves);
  if (message) box.append(element('p', 'check-message', units(message)));
  if (leaves.length) {
    const list = element('ul', 'check-values');
    for (const assertion of leaves) {
      const item = element('li', assertion.passed ? 'ok' : 'bad');
      item.append(element('span', 'check-symbol', assertion.passed ? '✓' : '✗'), ' ');
      item.append(`measured ${measuredWords(assertion)}, expected ${expectedWords(assertion)}`);
      list.append(item);
    }
    box.append(list);
  }
  if (result.hint) box.append(element('p', 'check-hint', `Hint: ${result.hint}`));
  box.append(details(result, leaves));
  return box;
}

function showRun(button, run) {
  const area = resultArea(button);
  if (!area) return;
  area.replaceChildren();
  if (!run.finished) {
    area.append(element('p', 'check-progress', `Checking… ${run.detail}`));
    return;
  }
  for (const result of run.results) area.append(outcome(result));
  if (!run.results.length) area.append(element('p', 'check-error', run.detail));
}

function flatten(assertions) {
  return assertions.flatMap((a) => (a.children?.length ? [a, ...flatten(a.children)] : [a]));
}

async function follow(button, run) {
  showRun(button, run);
  while (!run.finished) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    run = await call('GET', `/api/labs/${labId}/checks/${run.id}`);
    showRun(button, run);
  }
  await refreshSteps();
}

async function check(button) {
  try {
    const run = await call('POST', `/api/labs/${labId}/steps/${encodeURIComponent(button.dataset.step)}/check`);
    await follow(button, run);
  } catch (error) {
    resultArea(button)?.replaceChildren(element('p', 'check-error', error.message));
  }
}

async function refreshSteps() {
  if (!labId) return;
  const steps = await call('GET', `/api/labs/${labId}/steps`).catch(() => null);
  if (!steps) return;
  for (const [step, passed] of Object.entries(steps.passed)) {
    document.getElementById(`step-${step}`)?.classList.toggle('step-passed', passed);
    document.querySelector(`.toc a[href="#step-${step}"]`)?.classList.toggle('step-passed', passed);
  }
  showLastRuns(steps.last || {});
  showCompletion(Object.values(steps.passed));
}

// After a reload: each Check button shows its check's result from the step's newest finished run, as the server
// kept it, unless the page already shows a run of its own there.
function showLastRuns(last) {
  for (const button of buttons) {
    const run = last[button.dataset.step];
    const area = resultArea(button);
    if (!run || !area || area.childElementCount) continue;
    const results = run.results.filter((result) => result.check === button.dataset.check);
    if (!results.length) continue;
    area.append(...results.map(outcome));
  }
}

// Once every graded step has passed: a summary at the end of the lesson, with the next lesson.
function showCompletion(passed) {
  const box = document.getElementById('lesson-complete');
  if (!box) return;
  const complete = passed.length > 0 && passed.every(Boolean);
  box.hidden = !complete;
  if (!complete) return;
  const quizzes = document.querySelectorAll('form.quiz').length;
  const right = document.querySelectorAll('form.quiz .quiz-result.is-correct').length;
  box.querySelector('.lesson-complete-summary').textContent = `You passed all ${passed.length} graded step`
    + `${passed.length === 1 ? '' : 's'}${quizzes ? ` and answered ${right} of ${quizzes} quizzes correctly` : ''}.`;
}

// The hint says why a button is disabled: visibly next to it, and as its description and title.
function needsLabHint(button) {
  let hint = button.nextElementSibling;
  if (!hint?.classList.contains('check-needs-lab')) {
    hint = element('span', 'check-needs-lab', NEEDS_LAB);
    hint.id = `${button.closest('.check')?.id || button.dataset.check}-needs-lab`;
    button.after(hint);
    button.setAttribute('aria-describedby', hint.id);
  }
  return hint;
}

function showLabState(button) {
  if (!button.dataset.busy) button.disabled = !labId;
  button.title = labId ? '' : NEEDS_LAB;
  needsLabHint(button).hidden = Boolean(labId);
}

if (lesson && buttons.length) {
  for (const button of buttons) {
    button.addEventListener('click', () => {
      button.dataset.busy = '1';
      button.disabled = true;
      check(button).finally(() => {
        delete button.dataset.busy;
        showLabState(button);
      });
    });
  }
  onLabChange((lab) => {
    labId = lab?.id ?? null;
    buttons.forEach(showLabState);
    refreshSteps();
  });
}
