// The lab panel of a lesson page: section#lab-panel[data-lesson][data-nodes] with a #lab-start button. Starts the
// lesson's lab, shows its start stages, then a terminal tab per node with live tc statistics, and wires the
// lesson's .cmd-run[data-node][data-command] buttons to type into the right terminal.
import './lab.css';
import { ApiError, getLab, myLabs, startLab, stopLab } from './api.js';
import { NodeTerminal } from './terminal.js';
import { LabStats } from './stats.js';

const STAGES = { creating: 'Creating the lab nodes…', wiring: 'Wiring the network links…',
  configuring: 'Configuring the nodes…', ready: 'Almost ready…' };

// Tells the page's other scripts (the Check buttons, say) at once that this lesson's lab started or stopped.
function announce(status, id, expiresAt) {
  document.dispatchEvent(new CustomEvent('tclab:lab', { detail: { status, id, expiresAt } }));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

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
    this.workspace = el('div', 'tclab-workspace');
    this.startButton.after(this.stopButton, this.status);
    panel.append(this.workspace);
    this.startButton.addEventListener('click', () => this.start());
    this.stopButton.addEventListener('click', () => this.stop());
    document.addEventListener('click', (event) => {
      const button = event.target.closest('.cmd-run[data-node][data-command]');
      if (button) this.run(button.dataset.node, button.dataset.command);
    });
    this.resume();
  }

  say(text, isError = false) {
    this.status.textContent = text;
    this.status.classList.toggle('tclab-error', isError);
  }

  async resume() {
    try {
      const live = (await myLabs()).find((l) => l.lesson === this.lesson && (l.status === 'running' || l.status === 'starting'));
      if (live) await this.follow(live);
    } catch (e) {
      // Nothing to resume; the Start button is there.
    }
  }

  async start() {
    this.startButton.disabled = true;
    this.say('Starting the lab…');
    try {
      await this.follow(await startLab(this.lesson));
    } catch (e) {
      this.say(e instanceof ApiError ? e.message : `The lab could not start: ${e.message}`, true);
      this.startButton.disabled = false;
    }
  }

  async follow(lab) {
    this.startButton.disabled = true;
    while (lab.status === 'starting') {
      this.say(STAGES[lab.stage] || 'Starting the lab…');
      await new Promise((resolve) => setTimeout(resolve, 500));
      lab = await getLab(lab.id);
    }
    if (lab.status !== 'running') {
      throw new ApiError(lab.reason || `The lab is ${lab.status}.`);
    }
    this.open(lab);
  }

  open(lab) {
    this.lab = lab;
    announce(lab.status, lab.id, lab.expiresAt);
    const nodes = this.nodes.length ? this.nodes : lab.nodes.filter((n) => n.terminal).map((n) => n.name);
    this.say(`Lab ready: ${nodes.join(', ')}.`);
    this.startButton.hidden = true;
    this.stopButton.hidden = false;
    const tabs = el('div', 'tclab-tabs');
    tabs.setAttribute('role', 'tablist');
    const panes = el('div', 'tclab-panes');
    this.workspace.replaceChildren(tabs, panes);
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
      const termBox = el('div', 'tclab-terminal');
      const statsBox = el('div', 'tclab-stats');
      const scope = (lab.nodes.find((n) => n.name === node) || {}).stats || [];
      if (scope.length) statsBox.append(el('p', 'tclab-stats-scope', `Statistics shown for: ${scope.join(', ')}`));
      pane.append(termBox, statsBox);
      panes.append(pane);
      this.tabs.set(node, { tab, pane });
      this.show(node);
      this.terminals.set(node, new NodeTerminal(termBox, lab.id, node));
      statsBoxes[node] = statsBox;
    }
    this.show(nodes[0]);
    this.stats = new LabStats(statsBoxes, lab.id);
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
      return;
    }
    this.show(node);
    terminal.type(command);
  }

  async stop() {
    this.stopButton.disabled = true;
    try {
      const { id } = this.lab;
      await stopLab(id);
      this.close();
      announce('stopped', id, null);
      this.say('Lab stopped.');
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
    this.startButton.hidden = false;
    this.startButton.disabled = false;
  }
}

const panel = document.querySelector('section#lab-panel[data-lesson]');
if (panel && panel.querySelector('#lab-start')) {
  new LabPanel(panel);
}
