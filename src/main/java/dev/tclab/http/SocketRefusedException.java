package dev.tclab.http;

/**
 * A WebSocket that may not go on: the page is told {@code message} in an error frame, then the socket is closed
 * with {@code closeCode} (see {@link SocketCloseCodes}; 4xxx codes tell the page not to reconnect).
 */
public class SocketRefusedException extends Exception {

    private final int closeCode;

    public SocketRefusedException(int closeCode, String message) {
        super(message);
        this.closeCode = closeCode;
    }

    public int closeCode() {
        return closeCode;
    }
}
