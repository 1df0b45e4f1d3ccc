// Check buttons of a lesson page: enabled while the learner's lab for this lesson runs; a press asks the server to
// measure the step in the lab, then shows its result (renderCheckResult, exported for other pages). Steps that pass
// (by a press or by the server's background watch) are marked without a reload. All text is set with textContent.
import { call } from '../api.js';
import { el as element } from '../dom.js';
import { onLabChange } from './lab-state.js';

const NEEDS_LAB = 'Start the lab to check this step.';
const LAB_COMING = 'Your lab is starting: check this step once it runs.';
const lesson = document.getElementById('lab-panel')?.dataset.lesson;
const buttons = [...document.querySelectorAll('button.check-run')];
let labId = null;
// A lab of this lesson is queued, starting or restarting (a host's reset): the buttons wait for it, not for Start.
let labComing = false;

function resultArea(button) {
  let area = button.nextElementSibling;
  while (area && !area.classList.contains('check-result')) area = area.nextElementSibling;
  return area;
}

// The learner reads the outcome in words, from the typed reason of each expectation (docs/api.md): what was
// measured in the lesson's terms, its value with its unit and what it should be; skipped measurements in one line.
// Paths, patterns, measurement names and raw output stay behind a "Details" disclosure. Results kept before reasons
// existed fall back to their measured and expected values.
const VERDICTS = { passed: ['✓', 'Passed'], failed: ['✗', 'Not yet'], error: ['⚠', 'Could not measure'] };

const capital = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

/** One sentence for a failed expectation, from its reason. */
function failedSentence(assertion) {
  const r = assertion.reason;
  if (!r) return `Measured ${assertion.measured}, expected ${assertion.expected}.`;
  if (r.authored) return capital(assertion.message);
  const subject = capital(r.subject);
  switch (r.kind) {
    case 'no_value':
      return `${subject}: there is none to measure; it should be ${r.expected}.`;
    case 'measurement_failed':
      return `${subject} could not be measured: ${r.error}`;
    case 'no_ratio':
      return r.baseline
        ? `${subject} cannot be compared: ${r.ratioTo} measured ${r.baseline}.`
        : `${subject} cannot be compared: ${r.ratioTo} has no figure yet.`;
    case 'not_comparable':
      return `${subject} measured ${r.measured}, which cannot be compared that way; it should be ${r.expected}.`;
    default:
      if (r.ratioTo) {
        const ratio = assertion.ratio == null ? '' : `, ${+assertion.ratio.toPrecision(3)} times ${r.ratioTo} (${r.baseline})`;
        return `${subject} measured ${r.measured}${ratio}; it should be ${r.expected}.`;
      }
      if (r.comparison === 'matches') return `${subject} is not what the step asks for yet (the pattern is under Details).`;
      if (r.before != null) {
        return `${subject} measured ${r.measured} (${r.before} before the load, ${r.after} after it); it should be ${r.expected}.`;
      }
      return `${subject} measured ${r.measured}; it should be ${r.expected}.`;
  }
}

/**
 * Where the flow went when a failed expectation reads a class its flow never entered (reason.flow, docs/api.md):
 * "Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP packets to destination port
 * 24817."
 */
function flowSentence(miss) {
  const name = miss.flow ? ` ${miss.flow}` : '';
  const tos = miss.tos ? ` with TOS 0x${miss.tos.toString(16).padStart(2, '0')}` : '';
  const port = miss.reverse ? `from source port ${miss.serverPort}` : `to destination port ${miss.serverPort}`;
  const packets = `${miss.protocol.toUpperCase()} packets ${port}${tos}`;
  const not = miss.expected ? `, not ${miss.expected}` : '';
  return miss.byDefault
    ? `Your flow${name} went through class ${miss.wentThrough} (the default)${not}: no filter matched its ${packets}.`
    : `Your flow${name} went through class ${miss.wentThrough}${not} (a filter sent its ${packets} there).`;
}

/** "218× lower", "1.5× higher": how a value compares with the one it is a ratio to. */
function factor(ratio) {
  const x = ratio < 1 ? 1 / ratio : ratio;
  if (x < 1.05) return 'about the same';
  const times = x >= 10 ? Math.round(x) : +x.toPrecision(2);
  return `${times}× ${ratio < 1 ? 'lower' : 'higher'}`;
}

/**
 * A short line for an expectation that holds; a comparison shows both sides: "Average round trip of the client's
 * ping to 10.0.0.2 during the client's upload: 356 ms → 1.63 ms, 218× lower (356 ms is the figure step 1's check
 * recorded as loaded_ping)".
 */
function heldLine(assertion) {
  const r = assertion.reason;
  if (!r) return `${assertion.measured}, as expected`;
  if (r.ratioTo && r.baseline && r.measured && assertion.ratio > 0) {
    return `${capital(r.subject)}: ${r.baseline} → ${r.measured}, ${factor(assertion.ratio)} (${r.baseline} is `
      + `${r.ratioTo})`;
  }
  return r.measured ? `${capital(r.subject)}: ${r.measured}` : capital(r.subject);
}

/**
 * The members of an any_of the learner reads: those that hold when it holds; when it fails, those measured that
 * missed (CAKE's rate, above the line), not the alternatives absent from the lab (no tbf, so no tbf rate).
 */
function anyOfShown(group) {
  if (group.passed) return group.children.filter((c) => c.passed);
  const measured = group.children.filter((c) => c.reason?.kind === 'not_met');
  return measured.length ? measured : group.children;
}

/** The expectations the learner reads, one line each (an any_of shows only its members that tell). */
function leavesOf(result) {
  const leaves = [];
  const walk = (list) => list.forEach((a) => {
    if (!a.children?.length) leaves.push(a);
    else walk(a.reason?.comparison === 'any_of' ? anyOfShown(a) : a.children);
  });
  walk(result.assertions);
  return leaves;
}

function details(result) {
  const box = element('details', 'check-details');
  box.append(element('summary', null, 'Details'));
  if (result.assertions.length) {
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
  for (const route of result.flows || []) {
    const name = route.flow ? `${route.load}.flows.${route.flow}` : route.load;
    const clientPort = route.clientPort == null ? '' : ` port ${route.clientPort}`;
    const tos = route.tos ? `, TOS 0x${route.tos.toString(16).padStart(2, '0')}` : '';
    const ends = route.reverse
      ? `from port ${route.serverPort} to the client's${clientPort}`
      : `from${clientPort || ' the client'} to port ${route.serverPort}`;
    box.append(element('p', 'check-flow-sent', `Flow ${name}: ${route.protocol.toUpperCase()} ${ends}${tos}, `
      + `${route.bytes} bytes sent by ${route.node}; counted by:`));
    const counted = element('ul', 'check-flow-counted');
    for (const c of route.counted) {
      const marks = [c.byDefault ? 'the default' : '', c.leaf ? 'leaf' : ''].filter(Boolean).join(', ');
      counted.append(element('li', null, `${c.what} ${c.id} (${c.kind}) on ${c.dev}${marks ? ` [${marks}]` : ''}: `
        + `+${c.bytes} bytes, +${c.packets} packets`));
    }
    if (!route.counted.length) counted.append(element('li', null, 'no qdisc or class counted about its bytes'));
    box.append(counted);
  }
  for (const [name, error] of Object.entries(result.errors || {})) {
    box.append(element('p', 'check-error', `${name}: ${error}`));
    if (result.raw?.[name]) box.append(element('pre', 'check-raw', result.raw[name]));
  }
  const seconds = (result.millis / 1000).toFixed(1);
  box.append(element('p', 'check-meta', `Check ${result.check}: ${result.attempts} sample${result.attempts === 1 ? '' : 's'} in ${seconds} s. Message: ${result.message || '–'}`));
  return box;
}

/**
 * One check's result (an element of a check run's `results`, docs/api.md) as the learner reads it: the verdict, one
 * sentence per failed expectation, one line for what was not measured, a hint unless it passed, and Details.
 */
export function renderCheckResult(result) {
  const [symbol, word] = VERDICTS[result.status] || ['?', result.status];
  const box = element('div', `check-outcome ${result.status}`);
  const verdict = element('p', 'check-verdict');
  verdict.append(element('span', 'check-symbol', symbol), ` ${word}`);
  if (result.title) verdict.append(`: ${capital(result.title)}`);
  box.append(verdict);
  const leaves = leavesOf(result);
  // A platform error (no lab, no baseline yet) or a failure no expectation explains: the measurements' own errors
  // when there are some (their names stay under Details), else the server's sentence.
  if (result.status !== 'passed' && !leaves.some((a) => !a.passed)) {
    const errors = Object.values(result.errors || {});
    const words = errors.length ? errors.map((e) => `Could not measure: ${e}`) : [result.message];
    for (const text of words) box.append(element('p', 'check-message', text));
  }
  const skipped = leaves.filter((a) => a.reason?.kind === 'skipped');
  const shown = leaves.filter((a) => a.reason?.kind !== 'skipped');
  if (shown.length) {
    const list = element('ul', 'check-values');
    for (const assertion of shown) {
      const item = element('li', assertion.passed ? 'ok' : 'bad');
      item.append(element('span', 'check-symbol', assertion.passed ? '✓' : '✗'), ' ');
      item.append(assertion.passed ? heldLine(assertion) : failedSentence(assertion));
      if (!assertion.passed && assertion.reason?.flow) {
        item.append(element('p', 'check-flow', flowSentence(assertion.reason.flow)));
      }
      list.append(item);
    }
    box.append(list);
  }
  if (skipped.length) {
    const what = [...new Set(skipped.map((a) => a.reason.subject))].join(', ');
    const gates = [...new Set(shown.filter((a) => !a.passed && a.reason).map((a) => a.reason.subject))];
    const until = gates.length === 1 ? gates[0] : 'the above';
    box.append(element('p', 'check-skipped', `${capital(what)}: not measured until ${until} is right.`));
  }
  if (result.hint && result.status !== 'passed') box.append(element('p', 'check-hint', `Hint: ${result.hint}`));
  box.append(details(result));
  return box;
}

function showRun(button, run) {
  const area = resultArea(button);
  if (!area) return;
  area.replaceChildren();
  if (!run.finished) {
    area.append(element('p', 'check-progress', `Checking… ${run.detail}`));
    if (run.measuring) area.append(element('p', 'check-time', measuringWords(run.measuring)));
    return;
  }
  for (const result of run.results) area.append(renderCheckResult(result));
  if (!run.results.length) area.append(element('p', 'check-error', run.detail));
}

// How long the check sends traffic, so a 45 s check is not a silent one: "This check sends traffic for about 6 s,
// up to 18 s if a try fails and it measures again."
function measuringWords({ seconds, atMostSeconds }) {
  const more = atMostSeconds > seconds ? `, up to ${atMostSeconds} s if a try fails and it measures again` : '';
  return `This check sends traffic for about ${seconds} s${more}.`;
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
    area.append(...results.map(renderCheckResult));
  }
}

// Once every graded step has passed: a summary at the end of the lesson, with the next lesson. Told again when a
// quiz is answered, so its tally counts the answers given after the last step passed.
let stepsPassed = [];
document.addEventListener('tclab:quiz-answered', () => showCompletion(stepsPassed));

function showCompletion(passed) {
  stepsPassed = passed;
  const box = document.getElementById('lesson-complete');
  if (!box) return;
  const complete = passed.length > 0 && passed.every(Boolean);
  box.hidden = !complete;
  if (!complete) return;
  const quizzes = document.querySelectorAll('form.quiz').length;
  const right = document.querySelectorAll('form.quiz .quiz-result.is-correct').length;
  box.querySelector('.lesson-complete-summary').textContent = `You passed all ${passed.length} graded step`
    + `${passed.length === 1 ? '' : 's'}${quizzes ? ` and answered ${right} of ${quizzes} quizzes correctly` : ''}.`;
  showStopOffer();
}

// A finished lesson offers to stop its lab (the lab panel asks first, as its own Stop does) while one runs.
function showStopOffer() {
  const offer = document.querySelector('#lesson-complete .lesson-complete-stop');
  if (offer) offer.hidden = !labId;
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
  const why = labComing ? LAB_COMING : NEEDS_LAB;
  button.title = labId ? '' : why;
  const hint = needsLabHint(button);
  hint.textContent = why;
  hint.hidden = Boolean(labId);
}

if (lesson && buttons.length) {
  for (const button of buttons) {
    // While its run goes on, a pressed Check says it is busy but keeps the keyboard focus (a disabled button
    // dropped it to the page), and a second press does nothing.
    button.addEventListener('click', () => {
      if (button.dataset.busy) return;
      button.dataset.busy = '1';
      button.setAttribute('aria-disabled', 'true');
      check(button).finally(() => {
        delete button.dataset.busy;
        button.removeAttribute('aria-disabled');
        showLabState(button);
      });
    });
  }
  document.getElementById('lesson-complete-stop')?.addEventListener('click', () => {
    document.dispatchEvent(new CustomEvent('tclab:ask-stop'));
  });
  onLabChange((lab, coming) => {
    labId = lab?.id ?? null;
    labComing = coming;
    buttons.forEach(showLabState);
    showStopOffer();
    refreshSteps();
  });
}
