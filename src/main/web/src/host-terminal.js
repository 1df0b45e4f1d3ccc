// A workshop host's view of a learner's terminal, on the dashboard: "Shadow" opens it read-only, "Take over" lets
// the host type (the learner's terminal says so). One view at a time; closing it closes the socket.
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { FIRST_ACK, drawnOutput } from './drawn-output.js';

const panel = document.getElementById('host-terminal');
const title = document.getElementById('host-terminal-title');
const screen = document.getElementById('host-terminal-screen');
const note = document.getElementById('host-terminal-note');
const takeOver = document.getElementById('host-terminal-take-over');
const eventId = document.getElementById('dashboard')?.dataset.event;
let current = null;

function close() {
  if (current) {
    current.socket.close();
    current.term.dispose();
    current = null;
  }
  panel.hidden = true;
}

function open({ learner, name, lab, node }, control) {
  close();
  panel.hidden = false;
  // In control, keys reach the node only once the socket is open: until then the title says so and the terminal
  // takes no input (on a loaded server a host typed right after "Take over" and lost the keys).
  title.textContent = `${name} · ${node}${control ? ' · connecting…' : ' · read-only'}`;
  takeOver.hidden = control;
  note.textContent = '';
  const term = new Terminal({ convertEol: false, scrollback: 2000, fontSize: 13, disableStdin: true });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.open(screen);
  fit.fit();
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${location.host}/api/host/events/${encodeURIComponent(eventId)}`
    + `/learners/${encodeURIComponent(learner)}/labs/${encodeURIComponent(lab)}/nodes/${encodeURIComponent(node)}`
    + `/terminal?mode=${control ? 'control' : 'shadow'}`);
  socket.binaryType = 'arraybuffer';
  // As the learner's terminal does: a learner's flood reaches this view paced by what it drew.
  socket.addEventListener('open', () => socket.send(FIRST_ACK));
  if (control) {
    socket.addEventListener('open', () => {
      if (current?.socket === socket) {
        title.textContent = `${name} · ${node} · you are typing`;
        term.options.disableStdin = false;
        term.focus();
      }
    });
  }
  const draw = drawnOutput(term, socket);
  socket.onmessage = (message) => {
    if (typeof message.data === 'string') {
      const frame = JSON.parse(message.data);
      if (frame.type === 'error' || frame.type === 'exit') {
        note.textContent = frame.message || frame.reason;
      }
      return;
    }
    draw(message.data);
  };
  socket.onclose = (event) => {
    if (current?.socket === socket && event.reason) {
      note.textContent = event.reason;
    }
  };
  const encoder = new TextEncoder();
  term.onData((data) => control && socket.readyState === WebSocket.OPEN && socket.send(encoder.encode(data)));
  current = { socket, term, target: { learner, name, lab, node } };
}

if (panel && eventId) {
  document.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-shadow]');
    if (button) {
      const [lab, node] = button.dataset.shadow.split('/');
      open({ learner: button.dataset.learner, name: button.dataset.name, lab, node }, false);
    }
  });
  takeOver.addEventListener('click', () => current && open(current.target, true));
  document.getElementById('host-terminal-close').addEventListener('click', close);
}
