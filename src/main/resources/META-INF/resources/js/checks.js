// Check buttons of a lesson page: enabled while the learner's lab for this lesson runs; a press asks the server to
// measure the step in the lab, then shows every assertion with the measured and expected values. Steps that pass
// (by a press or by the server's background watch) are marked without a reload. All text is set with textContent.
import { onLabChange } from './lab-state.js';

const NEEDS_LAB = 'Start the lab to check this step.';
const lesson = document.getElementById('lab-panel')?.dataset.lesson;
const buttons = [...document.querySelectorAll('button.check-run')];
let labId = null;

async function json(url, options) {
  const response = await fetch(url, { headers: { 'Content-Type': 'application/json' }, ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body.error || `${response.status} ${response.statusText}`);
  }
  return body;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function resultArea(button) {
  let area = button.nextElementSibling;
  while (area && !area.classList.contains('check-result')) area = area.nextElementSibling;
  return area;
}

function showRun(button, run) {
  const area = resultArea(button);
  if (!area) return;
  area.replaceChildren();
  if (!run.finished) {
    area.append(element('p', 'check-progress', `Checking… ${run.detail}`));
    return;
  }
  for (const result of run.results) {
    const box = element('div', `check-outcome ${result.status}`);
    const verdict = { passed: '✓ Passed', failed: '✗ Not yet', error: '⚠ Could not measure' }[result.status];
    box.append(element('p', 'check-verdict', `${verdict}${result.title ? ': ' + result.title : ''}`));
    if (result.message) box.append(element('p', 'check-message', result.message));
    const table = element('table', 'check-assertions');
    const head = table.createTHead().insertRow();
    for (const label of ['', 'value', 'measured', 'expected']) head.append(element('th', null, label));
    for (const assertion of flatten(result.assertions)) {
      const row = table.insertRow();
      row.className = assertion.passed ? 'ok' : 'bad';
      row.insertCell().textContent = assertion.passed ? '✓' : '✗';
      row.insertCell().textContent = assertion.path;
      row.insertCell().textContent = assertion.measured;
      row.insertCell().textContent = assertion.expected;
    }
    if (result.assertions.length) box.append(table);
    for (const [name, error] of Object.entries(result.errors || {})) {
      box.append(element('p', 'check-error', `${name}: ${error}`));
      if (result.raw?.[name]) box.append(element('pre', 'check-raw', result.raw[name]));
    }
    if (result.hint) box.append(element('p', 'check-hint', `Hint: ${result.hint}`));
    area.append(box);
  }
  if (!run.results.length) area.append(element('p', 'check-error', run.detail));
}

function flatten(assertions) {
  return assertions.flatMap((a) => (a.children?.length ? [a, ...flatten(a.children)] : [a]));
}

async function follow(button, run) {
  showRun(button, run);
  while (!run.finished) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    run = await json(`/api/labs/${labId}/checks/${run.id}`);
    showRun(button, run);
  }
  await refreshSteps();
}

async function check(button) {
  try {
    const run = await json(`/api/labs/${labId}/steps/${encodeURIComponent(button.dataset.step)}/check`, { method: 'POST' });
    await follow(button, run);
  } catch (error) {
    resultArea(button)?.replaceChildren(element('p', 'check-error', error.message));
  }
}

async function refreshSteps() {
  if (!labId) return;
  const steps = await json(`/api/labs/${labId}/steps`).catch(() => null);
  if (!steps) return;
  for (const [step, passed] of Object.entries(steps.passed)) {
    document.getElementById(`step-${step}`)?.classList.toggle('step-passed', passed);
    document.querySelector(`.toc a[href="#step-${step}"]`)?.classList.toggle('step-passed', passed);
  }
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
