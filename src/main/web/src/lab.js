// The lab panel of a lesson page: section#lab-panel[data-lesson][data-nodes] with a #lab-start button. Starts the
// lesson's lab, shows its start stages, then a terminal tab per node with live tc statistics, and wires the
// lesson's .cmd-run[data-node][data-command] buttons to type into the right terminal.
import './lab.css';
import { ApiError, getLab, myLabs, startLab, stopLab } from './api.js';
import { el } from './dom.js';
import { LEAVE_KEY, NodeTerminal } from './terminal.js';
import { LabStats } from './stats.js';
import { labsAtLoad, onLabChange } from './page/lab-state.js';
// The rest of the lesson page: Check buttons, quizzes answered in place, the idle-stop note, Copy buttons, and the
// reading place kept across a reload.
import './page/checks.js';
import './page/quizzes.js';
import './page/lab-expiry.js';
import './page/copy-buttons.js';
import './page/reading-place.js';

const STAGES = { creating: 'Creating the lab nodes…', wiring: 'Wiring the network links…',
  configuring: 'Configuring the nodes…', ready: 'Almost ready…' };

// A queued lab starts by itself when a slot frees; the page says where it stands while it waits.
function queueText(queue) {
  if (!queue) return 'Waiting for a free slot…';
  const wait = queue.estimatedWaitSeconds == null ? ''
    : ` About ${Math.max(1, Math.round(queue.estimatedWaitSeconds / 60))} min.`;
  return `The server is full: your lab is number ${queue.position} of ${queue.waiting} waiting, and starts by itself`
    + ` when a slot frees.${wait}`;
}

// Tells the page's other scripts (the Check buttons, say) at once that this lesson's lab started or stopped.
function announce(status, id, expiresAt, endsAt) {
  document.dispatchEvent(new CustomEvent('tclab:lab', { detail: { status, id, expiresAt, endsAt } }));
}

const LESSON_WIDTH_KEY = 'tclab.lessonWidth';
// How many times (every 0.5 s: 20 s in all) a reset's page looks for the fresh lab; the server makes it right after the
// old one ends.
const RESTART_TRIES = 40;

class LabPanel {
  constructor(panel) {
    this.panel = panel;
    this.lesson = panel.dataset.lesson;
    this.nodes = (panel.dataset.nodes || '').split(',').map((n) => n.trim()).filter(Boolean);
    this.startButton = panel.querySelector('#lab-start');
    this.status = el('p', 'tclab-status');
    this.status.setAttribute('role', 'status');
    this.stopButton = el('button', 'tclab-stop', 'Stop lab');
    this.stopButton.type = 'button';
    this.stopButton.id = 'lab-stop';
    this.stopButton.hidden = true;
    this.confirmBox = this.stopConfirmation();
    // What the host (or the server) did to this lab, in their words, until the learner starts again.
    this.notice = el('p', 'tclab-notice');
    this.notice.id = 'lab-notice';
    this.notice.setAttribute('role', 'alert');
    this.notice.hidden = true;
    // While a host's view of this lab's terminals is open.
    this.watched = el('p', 'tclab-watched', 'Your host is watching your terminal.');
    this.watched.id = 'lab-watched';
    this.watched.hidden = true;
    this.workspace = el('div', 'tclab-workspace');
    const bar = panel.querySelector('.lab-bar');
    if (bar) {
      // One compact line: title, status, expiry, and Stop at its far end, away from where Start was.
      bar.querySelector('h2').after(this.status);
      bar.append(this.stopButton);
      bar.after(this.confirmBox, this.notice, this.watched);
    } else {
      this.startButton.after(this.stopButton, this.status, this.confirmBox, this.notice, this.watched);
    }
    this.about = panel.querySelector('.lab-about');
    panel.append(this.workspace);
    this.switchState = document.getElementById('lab-switch-state');
    this.layout = panel.closest('.lesson-layout');
    if (this.layout) {
      this.viewSwitch();
      this.splitter();
    }
    this.skipToLab();
    this.startButton.addEventListener('click', () => this.start());
    this.stopButton.addEventListener('click', () => this.askToStop());
    document.addEventListener('click', (event) => {
      const button = event.target.closest('.cmd-run[data-node][data-command]');
      if (button) {
        this.returnTo = button;
        this.run(button.dataset.node, button.dataset.command);
      }
    });
    this.resume(labsAtLoad);
    document.addEventListener('tclab:notice', (event) => this.heard(event.detail));
    // The finished lesson's "Stop the lab": the same question as the panel's Stop, shown where it is asked.
    document.addEventListener('tclab:ask-stop', () => {
      if (this.stopButton.hidden) return;
      this.showView('lab');
      this.panel.scrollIntoView({ block: 'start' });
      this.askToStop();
    });
    // A lab of this lesson running that this panel does not show (a host's reset replaced it, or another tab
    // started one): the panel switches to it.
    onLabChange((lab) => {
      if (lab && !this.following && lab.id !== this.lab?.id) {
        this.close();
        this.follow(lab).catch((e) => {
          this.say(e.message, true);
          this.startButton.disabled = false;
        });
      }
    });
  }

  /** Stop asks first: what goes with the lab cannot be had back. */
  stopConfirmation() {
    const box = el('div', 'tclab-confirm');
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-labelledby', 'lab-stop-question');
    box.hidden = true;
    const question = el('p', null, 'Stop the lab? Its containers are removed: whatever you typed and configured in '
      + 'them, their shells, and the baselines this lesson recorded for later checks are lost. A new lab starts from scratch.');
    question.id = 'lab-stop-question';
    const yes = el('button', 'tclab-danger', 'Stop and discard the lab');
    yes.type = 'button';
    yes.id = 'lab-stop-confirm';
    const no = el('button', null, 'Keep the lab');
    no.type = 'button';
    no.id = 'lab-stop-cancel';
    const actions = el('div', 'tclab-confirm-actions');
    actions.append(yes, no);
    box.append(question, actions);
    yes.addEventListener('click', () => { box.hidden = true; this.stop(); });
    no.addEventListener('click', () => { box.hidden = true; this.stopButton.focus(); });
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') no.click();
    });
    return box;
  }

  askToStop() {
    this.confirmBox.hidden = false;
    this.confirmBox.querySelector('#lab-stop-cancel').focus();
  }

  /**
   * The page's second Tab stop, "Skip to your lab" (the lab sat behind some 70 stops of lesson text): it shows the
   * lab, on a phone too, and gives the keyboard to Start lab, or to the panel once a lab runs.
   */
  skipToLab() {
    document.getElementById('skip-to-lab')?.addEventListener('click', (event) => {
      event.preventDefault();
      this.showView('lab');
      this.panel.scrollIntoView({ block: 'start' });
      (this.startButton.hidden || this.startButton.disabled ? this.panel : this.startButton).focus();
    });
  }

  /** Narrow screens: the sticky Lesson | Lab bar shows one of the two (links to them without JavaScript). */
  viewSwitch() {
    this.viewLinks = [...document.querySelectorAll('.view-switch a[data-view]')];
    for (const link of this.viewLinks) {
      link.addEventListener('click', (event) => {
        event.preventDefault();
        this.showView(link.dataset.view);
        (link.dataset.view === 'lab' ? this.panel : this.layout).scrollIntoView({ block: 'start' });
      });
    }
    this.showView('lesson');
  }

  showView(view) {
    if (!this.viewLinks) return;
    this.layout.dataset.view = view;
    for (const link of this.viewLinks) link.setAttribute('aria-current', String(link.dataset.view === view));
    if (view === 'lab' && this.terminals) this.terminals.forEach((t) => t.refit());
  }

  /** Wide screens: a separator between lesson and lab, dragged or moved with the arrow keys; the width is kept. */
  splitter() {
    const split = el('div', 'lab-split');
    split.setAttribute('role', 'separator');
    split.setAttribute('aria-orientation', 'vertical');
    split.setAttribute('aria-label', 'Width of the lesson text (arrow keys to change)');
    split.tabIndex = 0;
    this.panel.before(split);
    const apply = (px) => {
      const width = Math.round(Math.max(260, Math.min(px, this.layout.clientWidth - 420)));
      this.layout.style.setProperty('--lesson-width', `${width}px`);
      split.setAttribute('aria-valuenow', String(width));
      return width;
    };
    const saved = Number(localStorage.getItem(LESSON_WIDTH_KEY));
    if (saved > 0) apply(saved);
    // A focusable separator states its position: the lesson's width in pixels, from 260.
    split.setAttribute('aria-valuemin', '260');
    split.setAttribute('aria-valuemax', String(Math.max(260, this.layout.clientWidth - 420)));
    split.setAttribute('aria-valuenow', String(Math.round(this.layout.querySelector('.lesson').getBoundingClientRect().width)));
    const save = (width) => localStorage.setItem(LESSON_WIDTH_KEY, String(width));
    split.addEventListener('pointerdown', (event) => {
      split.setPointerCapture(event.pointerId);
      const left = this.layout.getBoundingClientRect().left;
      const move = (e) => apply(e.clientX - left);
      const up = (e) => {
        save(apply(e.clientX - left));
        split.removeEventListener('pointermove', move);
        split.removeEventListener('pointerup', up);
      };
      split.addEventListener('pointermove', move);
      split.addEventListener('pointerup', up);
    });
    split.addEventListener('keydown', (event) => {
      const step = { ArrowLeft: -32, ArrowRight: 32 }[event.key];
      if (!step) return;
      event.preventDefault();
      const lesson = this.layout.querySelector('.lesson');
      save(apply(lesson.getBoundingClientRect().width + step));
    });
  }

  say(text, isError = false) {
    this.status.textContent = text;
    this.status.classList.toggle('tclab-error', isError);
  }

  /**
   * A push about one of the learner's labs (workshop/event-banner.js relays the socket's notices): news about the lab
   * this panel shows or follows is said in the host's (or the server's) words; an ended lab closes, and a fresh lab
   * of the lesson (a host's reset) is followed as soon as it exists.
   */
  heard(notice) {
    const mine = notice.labId === (this.lab?.id ?? this.followingId);
    if (notice.lesson !== this.lesson || !mine) return;
    if (notice.kind === 'watched' || notice.kind === 'unwatched') {
      this.watched.hidden = notice.kind === 'unwatched';
      return;
    }
    this.tell(notice.text);
    if (notice.kind === 'restarting') {
      this.restart(notice.labId);
      return;
    }
    if (notice.kind === 'ended') {
      this.watched.hidden = true;
      if (this.lab) {
        this.close();
        announce('stopped', notice.labId, null);
        this.say('');
        this.labState('not started');
      }
      // A reset's fresh lab is created just after the old one ended: look for it once it has had a moment.
      setTimeout(() => { if (!this.lab && !this.following) this.resume(); }, 400);
    }
  }

  /**
   * A host's reset: the old lab ended and a fresh one of the lesson is being made in its place. The panel says so and
   * waits for it (Start stays away, the Check buttons say the lab is on its way), follows its start stages, and
   * clears the host's notice once it runs. Should no fresh lab appear (the server refused it), Start comes back.
   */
  async restart(oldId) {
    this.watched.hidden = true;
    if (this.lab) this.close();
    this.startButton.hidden = true;
    this.startButton.disabled = true;
    this.following = true;
    announce('restarting', null, null);
    this.labState('restarting');
    this.say('Your lab is being replaced by a fresh one…');
    try {
      for (let tries = 0; tries < RESTART_TRIES; tries++) {
        const fresh = this.liveLab(await myLabs().catch(() => []), oldId);
        if (fresh) {
          this.following = false;
          await this.follow(fresh);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error('No fresh lab started for you. Press Start lab to start one.');
    } catch (e) {
      this.following = false;
      this.startButton.hidden = false;
      this.startButton.disabled = false;
      announce('stopped', null, null);
      this.labState('not started');
      this.say(e.message, true);
    }
  }

  tell(text) {
    this.notice.textContent = text;
    this.notice.hidden = !text;
  }

  /** This lesson's lab in GET /api/labs's answer that is queued, starting or running (other than `notId`). */
  liveLab(labs, notId = null) {
    return labs.find((l) => l.lesson === this.lesson && l.id !== notId
      && ['queued', 'starting', 'running'].includes(l.status));
  }

  async resume(answer = myLabs()) {
    try {
      const live = this.liveLab(await answer);
      if (live) await this.follow(live);
    } catch (e) {
      // Nothing to resume; the Start button is there.
    }
  }

  async start() {
    this.tell('');
    // Start disappears once the lab runs: the keyboard then goes on at the first node's tab, not at the page's top.
    this.focusTabOnOpen = document.activeElement === this.startButton;
    this.startButton.disabled = true;
    this.labState('starting');
    this.say('Starting the lab…');
    try {
      await this.follow(await startLab(this.lesson));
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.data && e.data.running) {
        this.offerToReplace(e.data.running);
        return;
      }
      this.say(e instanceof ApiError ? e.message : `The lab could not start: ${e.message}`, true);
      this.startButton.disabled = false;
    }
  }

  /** One lab per learner: another lesson's lab runs; offer to stop it and start this one, or to go back to it. */
  offerToReplace(running) {
    this.say('');
    const box = el('div', 'tclab-confirm');
    box.id = 'lab-replace';
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-labelledby', 'lab-replace-question');
    const question = el('p', null, `Stop your \u201c${running.title}\u201d lab and start this one? You run one lab at a `
      + 'time. What you typed and configured in that lab, and the baselines it recorded, are lost.');
    question.id = 'lab-replace-question';
    const yes = el('button', 'tclab-danger', 'Stop it and start this one');
    yes.type = 'button';
    yes.id = 'lab-replace-confirm';
    const back = el('a', null, `Go back to \u201c${running.title}\u201d`);
    back.href = `/lessons/${encodeURIComponent(running.lesson)}`;
    const no = el('button', null, 'Cancel');
    no.type = 'button';
    no.id = 'lab-replace-cancel';
    const actions = el('div', 'tclab-confirm-actions');
    actions.append(yes, no, back);
    box.append(question, actions);
    this.confirmBox.after(box);
    const close = () => {
      box.remove();
      this.labState('not started');
      this.startButton.disabled = false;
    };
    no.addEventListener('click', () => { close(); this.startButton.focus(); });
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') no.click();
    });
    yes.addEventListener('click', async () => {
      box.remove();
      this.labState('starting');
      this.say('Stopping your other lab and starting this one…');
      try {
        await this.follow(await startLab(this.lesson, true));
      } catch (e) {
        this.say(e instanceof ApiError ? e.message : `The lab could not start: ${e.message}`, true);
        this.startButton.disabled = false;
      }
    });
    no.focus();
  }

  async follow(lab) {
    this.startButton.disabled = true;
    this.following = true;
    this.followingId = lab.id;
    if (lab.status !== 'running') announce(lab.status, lab.id, null);
    try {
      // A server that restarts keeps queued starts (docs/api.md): while it does not answer, the page keeps asking.
      let away = null;
      while (lab.status === 'queued' || lab.status === 'starting') {
        // A starting lab without a stage yet is between its admission and its first node (a start slot, if the
        // server is busy, is part of that): nothing worth a word of its own, so no "waiting" flashes by.
        this.say(away || (lab.status === 'queued' ? queueText(lab.queue) : STAGES[lab.stage] || 'Starting the lab…'));
        await new Promise((resolve) => setTimeout(resolve, away ? 2000 : 500));
        try {
          lab = await getLab(lab.id);
          away = null;
        } catch (e) {
          if (!(e instanceof ApiError) || (e.status !== 0 && e.status < 500)) throw e;
          away = 'The server does not answer just now (restarting?). Your lab keeps its place; asking again…';
        }
      }
      if (lab.status !== 'running') {
        throw new ApiError(lab.reason || `The lab is ${lab.status}.`);
      }
      this.open(lab);
    } finally {
      this.following = false;
      this.followingId = null;
    }
  }

  open(lab) {
    this.lab = lab;
    // What the host said about the lab this one replaces (a reset, a stop) is over once this one runs.
    this.tell('');
    announce(lab.status, lab.id, lab.expiresAt, lab.endsAt);
    const nodes = this.nodes.length ? this.nodes : lab.nodes.filter((n) => n.terminal).map((n) => n.name);
    this.say(`Lab ready: ${nodes.join(', ')}.`);
    this.labState('running');
    if (this.about) this.about.hidden = true;
    this.startButton.hidden = true;
    this.stopButton.hidden = false;
    const tabs = el('div', 'tclab-tabs');
    tabs.setAttribute('role', 'tablist');
    const panes = el('div', 'tclab-panes');
    const keys = el('p', 'tclab-keys', `Keyboard: Tab completes in the terminal; ${LEAVE_KEY} leaves it, back to the lesson.`);
    keys.id = 'tclab-terminal-keys';
    // The way back from the lab to the step at hand (it sat some 60 Shift+Tabs away).
    const toCheck = el('button', 'tclab-to-check', 'Back to your step\u2019s Check');
    toCheck.type = 'button';
    toCheck.id = 'lab-to-check';
    toCheck.addEventListener('click', () => this.toCurrentCheck());
    const tabBar = el('div', 'tclab-tabbar');
    tabBar.append(tabs, keys);
    if (document.querySelector('button.check-run')) tabBar.append(toCheck);
    this.workspace.replaceChildren(tabBar, panes);
    this.terminals = new Map();
    this.tabs = new Map();
    const statsBoxes = {};
    for (const node of nodes) {
      const tab = el('button', 'tclab-tab', node);
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.dataset.node = node;
      tab.addEventListener('click', () => this.show(node));
      tabs.append(tab);
      const pane = el('div', 'tclab-pane');
      pane.dataset.node = node;
      const termBox = el('div', 'tclab-terminal-box');
      const statsBox = el('div', 'tclab-stats');
      const scope = (lab.nodes.find((n) => n.name === node) || {}).stats || [];
      if (scope.length) statsBox.append(el('p', 'tclab-stats-scope', `Statistics shown for: ${scope.join(', ')}`));
      pane.append(termBox, statsBox);
      panes.append(pane);
      this.tabs.set(node, { tab, pane });
      this.show(node);
      const terminal = new NodeTerminal(termBox, lab.id, node);
      terminal.describedBy(keys.id);
      terminal.onLeave = () => this.leaveTerminal(node);
      this.terminals.set(node, terminal);
      statsBoxes[node] = statsBox;
    }
    this.show(nodes[0]);
    this.stats = new LabStats(statsBoxes, lab.id);
    if (this.focusTabOnOpen) this.tabs.get(nodes[0]).tab.focus();
  }

  show(node) {
    for (const [name, { tab, pane }] of this.tabs) {
      const active = name === node;
      tab.setAttribute('aria-selected', String(active));
      tab.classList.toggle('tclab-active', active);
      pane.hidden = !active;
    }
    const terminal = this.terminals && this.terminals.get(node);
    if (terminal) terminal.refit();
  }

  run(node, command) {
    const terminal = this.terminals && this.terminals.get(node);
    if (!terminal) {
      this.say(this.lab ? `This lab has no terminal on ${node}.` : 'Start the lab first, then run the command.', true);
      this.showView('lab');
      this.panel.scrollIntoView({ block: 'start' });
      if (!this.lab) this.startButton.focus();
      return;
    }
    this.show(node);
    this.showView('lab');
    if (terminal.type(command)) {
      this.say(`Ran on ${node}.`);
    } else {
      this.say(`The ${node} terminal is open in another tab or window. Press "Use it here" to bring it to this page, then Run again.`, true);
    }
    terminal.reveal();
    this.tabsBelowBar();
  }

  /** The Check button of the first step with a check not passed yet (else the last Check): shown and focused. */
  toCurrentCheck() {
    const checks = [...document.querySelectorAll('button.check-run')];
    const current = checks.find((b) => !b.closest('[id^="step-"]')?.classList.contains('step-passed'))
      || checks[checks.length - 1];
    if (!current) return;
    this.showView('lesson');
    current.scrollIntoView({ block: 'center' });
    current.focus();
  }

  /** The leave key in a terminal: back to the Run button that sent the last command, else to the node's tab. */
  leaveTerminal(node) {
    if (this.returnTo && this.returnTo.isConnected) {
      this.showView('lesson');
      this.returnTo.focus();
    } else {
      this.tabs.get(node).tab.focus();
    }
  }

  /** Narrow screens: the node tabs, not only the terminal, sit just below the sticky Lesson | Lab bar. */
  tabsBelowBar() {
    const bar = document.querySelector('.view-switch');
    const tabs = this.workspace.querySelector('.tclab-tabbar');
    if (!bar || !tabs || getComputedStyle(bar).display === 'none') return;
    const gap = tabs.getBoundingClientRect().top - bar.getBoundingClientRect().bottom;
    window.scrollBy({ top: gap - 4, behavior: 'instant' });
  }

  labState(text) {
    if (this.switchState) this.switchState.textContent = text;
  }

  async stop() {
    this.stopButton.disabled = true;
    try {
      const { id } = this.lab;
      await stopLab(id);
      this.close();
      announce('stopped', id, null);
      this.say('Lab stopped.');
      this.labState('not started');
    } catch (e) {
      this.say(e.message, true);
    } finally {
      this.stopButton.disabled = false;
    }
  }

  close() {
    if (this.terminals) this.terminals.forEach((t) => t.dispose());
    if (this.stats) this.stats.dispose();
    this.terminals = null;
    this.stats = null;
    this.lab = null;
    this.workspace.replaceChildren();
    this.stopButton.hidden = true;
    if (this.about) this.about.hidden = false;
    this.startButton.hidden = false;
    this.startButton.disabled = false;
  }
}

const panel = document.querySelector('section#lab-panel[data-lesson]');
if (panel && panel.querySelector('#lab-start')) {
  new LabPanel(panel);
}
