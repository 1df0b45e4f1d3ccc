// Terminal output drawn and acknowledged: the server sends a terminal socket's output only a window (128 KiB) ahead of
// what the page says it drew ({"type":"ack","bytes":N}, docs/api.md), so a flood never buries a Ctrl-C's prompt. Used
// by the learner's terminals and by a workshop host's view of one.

// How often a page tells the server how much it drew: well under the server's window.
const ACK_EVERY = 16 * 1024;

/** The first word of a socket that acknowledges: the server paces its output from the first byte. */
export const FIRST_ACK = JSON.stringify({ type: 'ack', bytes: 0 });

/**
 * A writer of one socket's binary frames into {@code term}: it decodes them as UTF-8 (a character may span frames)
 * and, once xterm has drawn them, tells the socket every ACK_EVERY bytes.
 */
export function drawnOutput(term, socket) {
  const decoder = new TextDecoder('utf-8');
  let drawn = 0;
  let acked = 0;
  return (data) => {
    const bytes = new Uint8Array(data);
    term.write(decoder.decode(bytes, { stream: true }), () => {
      drawn += bytes.length;
      if (drawn - acked >= ACK_EVERY && socket.readyState === WebSocket.OPEN) {
        acked = drawn;
        socket.send(JSON.stringify({ type: 'ack', bytes: drawn }));
      }
    });
  };
}
