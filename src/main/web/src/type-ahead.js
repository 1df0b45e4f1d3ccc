// Input for a terminal's shell, held until the shell reads it. Typed into a shell that has just started, before its
// prompt, a line shows twice: the terminal echoes it at once, and the shell again after its prompt, once it reads it
// (issue 42: after the shell ended, Run typed the command before the prompt, then again after it). So a connection's
// input waits until the server has said which shell it has: one in use already reads at once, a new one once its
// prompt is out (output, then a pause). A shell the warm pool started earlier counts as new to its first page, whose
// replay brought its prompt already: the pause counts from there.

/** The prompt is out once a new shell's output pauses this long. */
const PROMPT_QUIET_MS = 150;
/** A shell that prints nothing (a node at its process limit) or a server that says nothing gets its input anyway. */
const PROMPT_WAIT_MS = 3000;

export class TypeAhead {
  /** {@code send} hands bytes to the open socket. */
  constructor(send) {
    this.send = send;
    this.held = [];
    this.reading = false;
    this.newShell = false;
    this.sawOutput = false;
    this.quiet = null;
    this.fallback = null;
  }

  /** A socket opened: input waits for word of its shell, or the fallback. */
  connected() {
    this.stopTimers();
    this.reading = false;
    this.newShell = false;
    this.sawOutput = false;
    this.fallback = setTimeout(() => this.release(), PROMPT_WAIT_MS);
  }

  /** The socket closed: input is held for the next one. */
  disconnected() {
    this.stopTimers();
    this.reading = false;
    this.newShell = false;
  }

  /** The server named the shell: {@code fresh} when it started for this connection. */
  shell(fresh) {
    if (!fresh) {
      this.release();
      return;
    }
    this.newShell = true;
    if (this.sawOutput) this.pauseThenRelease();
  }

  /** The shell printed something: a new shell's prompt is out once its output pauses. */
  output() {
    this.sawOutput = true;
    if (this.newShell) this.pauseThenRelease();
  }

  pauseThenRelease() {
    clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.release(), PROMPT_QUIET_MS);
  }

  /** Sends {@code bytes} now if the shell reads, else holds them. */
  input(bytes) {
    if (this.reading) this.send(bytes);
    else this.held.push(bytes);
  }

  release() {
    this.stopTimers();
    this.newShell = false;
    this.reading = true;
    for (const bytes of this.held.splice(0)) this.send(bytes);
  }

  stopTimers() {
    clearTimeout(this.quiet);
    clearTimeout(this.fallback);
    this.quiet = null;
    this.fallback = null;
  }
}
