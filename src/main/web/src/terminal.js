// One node's terminal: an xterm bound to /ws/labs/{lab}/nodes/{node}/terminal. Binary frames carry raw bytes both
// ways; text frames carry JSON control messages. Reconnects with backoff; close codes 4000-4999 are final, except
// 4409 (another tab took the shell over), after which a "Use it here" button takes it back on request.
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { FIRST_ACK, drawnOutput } from './drawn-output.js';
import { TypeAhead } from './type-ahead.js';

const MAX_BACKOFF_MS = 15000;
// The server closes a socket on a message above 64 KiB; a big paste goes as several smaller messages.
const MAX_MESSAGE_BYTES = 16 * 1024;
const TAKEN_OVER = 4409;

/** The key that leaves the terminal, as the page tells the learner. */
export const LEAVE_KEY = 'Ctrl+]';

function isLeaveKey(event) {
  return event.ctrlKey && !event.altKey && !event.metaKey && (event.key === ']' || event.code === 'BracketRight');
}

export class NodeTerminal {
  constructor(box, labId, node) {
    this.labId = labId;
    this.node = node;
    this.box = box;
    const container = document.createElement('div');
    container.className = 'tclab-terminal';
    box.append(container);
    this.term = new Terminal({ cursorBlink: true, convertEol: false, scrollback: 5000, fontSize: 13 });
    this.fit = new FitAddon();
    this.term.loadAddon(this.fit);
    this.term.open(container);
    this.encoder = new TextEncoder();
    this.backoff = 500;
    this.closedForGood = false;
    this.shellEnded = false;
    // Input typed (or run from a command block) waits for a socket whose shell reads it.
    this.typeAhead = new TypeAhead((bytes) => this.socket.send(bytes));
    this.term.onData((data) => this.input(this.encoder.encode(data)));
    this.term.onBinary((data) => this.input(Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff)));
    this.term.onResize(({ cols, rows }) => this.control({ type: 'resize', cols, rows }));
    // xterm keeps Tab (the shell completes with it): Ctrl+] (telnet's escape key) gives the keyboard back to the page.
    this.term.attachCustomKeyEventHandler((event) => {
      if (!isLeaveKey(event)) return true;
      if (event.type === 'keydown' && this.onLeave) this.onLeave();
      return false;
    });
    this.resizeObserver = new ResizeObserver(() => this.refit());
    this.resizeObserver.observe(container);
    this.connect();
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${location.host}/ws/labs/${encodeURIComponent(this.labId)}/nodes/${encodeURIComponent(this.node)}/terminal`;
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    // Per connection: its own UTF-8 decoder and count of what was drawn, so a Ctrl-C's prompt shows at once, not
    // after seconds of output queued in the sockets.
    const draw = drawnOutput(this.term, socket);
    this.lastError = null;
    socket.onopen = () => {
      this.backoff = 500;
      this.shellEnded = false;
      this.refit();
      this.control({ type: 'resize', cols: this.term.cols, rows: this.term.rows });
      // Says at once that this page acknowledges what it draws, so the server paces output from the first byte.
      socket.send(FIRST_ACK);
      this.typeAhead.connected();
    };
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') {
        this.controlMessage(event.data);
      } else {
        draw(event.data);
        this.typeAhead.output();
      }
    };
    socket.onclose = (event) => this.closed(event);
    this.socket = socket;
  }

  controlMessage(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (e) {
      return;
    }
    if (message.type === 'error') {
      this.lastError = message.message;
      this.notice(message.message);
    } else if (message.type === 'shell') {
      // A fresh shell on a page that had one: the old shell ended, or the server restarted and adopted the lab.
      if (message.fresh && this.hadShell) {
        this.notice('This is a new shell (the previous one ended, or the server restarted). Your lab and its settings are as you left them.');
      }
      this.hadShell = true;
      this.typeAhead.shell(Boolean(message.fresh));
    } else if (message.type === 'exit') {
      this.shellEnded = true;
      const reason = (message.reason || 'The shell ended.').replace(/([^.!?])$/, '$1.');
      this.notice(`${reason} Press any key for a new shell.`);
    }
  }

  closed(event) {
    this.socket = null;
    this.typeAhead.disconnected();
    if (this.disposed) return;
    if (event.code === TAKEN_OVER) {
      this.closedForGood = true;
      this.offerTakeBack();
      return;
    }
    if (event.code >= 4000 && event.code < 5000) {
      this.closedForGood = true;
      if (!this.lastError) this.notice(event.reason || 'The terminal was closed by the server.');
      return;
    }
    if (this.shellEnded) return; // reconnect on the next key press
    const delay = this.backoff;
    this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  notice(text) {
    this.term.write(`\r\n\x1b[1;33m[tclab] ${text.replace(/[\x00-\x1f]/g, ' ')}\x1b[0m\r\n`);
  }

  /** A "Use it here" button over a terminal another tab or window took over; pressing it takes the shell back. */
  offerTakeBack() {
    if (this.takeBack) return;
    const bar = document.createElement('div');
    bar.className = 'tclab-takeover';
    const text = document.createElement('p');
    text.textContent = `The ${this.node} terminal is open in another tab or window.`;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'primary tclab-use-here';
    button.textContent = 'Use it here';
    button.addEventListener('click', () => {
      bar.remove();
      this.takeBack = null;
      this.closedForGood = false;
      this.lastError = null;
      this.connect();
      this.term.focus();
    });
    bar.append(text, button);
    this.box.append(bar);
    this.takeBack = bar;
  }

  input(bytes) {
    if (this.takeBack) return false; // the other tab has the shell; typing here must not silently take it back
    if (this.shellEnded && !this.socket) {
      // The key that asked for a new shell is its first input, not swallowed.
      this.shellEnded = false;
      this.connect();
    }
    for (let start = 0; start < bytes.length; start += MAX_MESSAGE_BYTES) {
      const chunk = bytes.subarray(start, start + MAX_MESSAGE_BYTES);
      if (!this.closedForGood) this.typeAhead.input(chunk);
    }
    return true;
  }

  control(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Types a command (one line at a time) as if the learner had; false when this page does not hold the shell. */
  type(command) {
    if (this.takeBack) return false;
    for (const line of command.split('\n')) this.input(this.encoder.encode(`${line}\r`));
    return true;
  }

  /** Brings the terminal into view and gives it the keyboard (or the "Use it here" button, when shown). */
  reveal() {
    this.box.scrollIntoView({ block: window.matchMedia('(min-width: 68rem)').matches ? 'nearest' : 'start' });
    if (this.takeBack) this.takeBack.querySelector('button').focus();
    else this.term.focus();
  }

  /** Names the element that tells how to leave the terminal, for screen readers in the terminal. */
  describedBy(id) {
    if (this.term.textarea) this.term.textarea.setAttribute('aria-describedby', id);
  }

  refit() {
    if (this.term.element && this.term.element.offsetParent !== null) {
      try {
        this.fit.fit();
      } catch (e) {
        // Hidden or zero-sized: the next resize fits it.
      }
    }
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.reconnectTimer);
    this.typeAhead.disconnected();
    this.resizeObserver.disconnect();
    if (this.socket) this.socket.close(1000);
    this.term.dispose();
  }
}
