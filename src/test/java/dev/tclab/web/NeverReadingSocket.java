package dev.tclab.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket opened as a hostile script opens one (issue 25, row 2): a plain TCP connection that sends the upgrade
 * request with a cookie and the page's Origin, reads the answer's head and then nothing more, so whatever the server
 * sends, its close frame included, waits unread and unanswered. A WebSocket client library would keep reading.
 */
public final class NeverReadingSocket {

    private NeverReadingSocket() {}

    /**
     * The connection to {@code path} on the server at {@code base}, upgraded; fails with the answer's status line
     * when the server did not switch protocols.
     */
    public static Socket open(URI base, String path, String cookieHeader) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
            socket.setSoTimeout(30_000);
            byte[] key = new byte[16];
            ThreadLocalRandom.current().nextBytes(key);
            String host = base.getHost() + ":" + base.getPort();
            String upgrade = "GET " + path + " HTTP/1.1\r\n"
                    + "Host: " + host + "\r\n"
                    + "Upgrade: websocket\r\n"
                    + "Connection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\n"
                    + "Sec-WebSocket-Version: 13\r\n"
                    + "Origin: http://" + host + "\r\n"
                    + "Cookie: " + cookieHeader + "\r\n\r\n";
            socket.getOutputStream().write(upgrade.getBytes(StandardCharsets.US_ASCII));
            String status = statusLine(socket.getInputStream());
            if (!status.startsWith("HTTP/1.1 101")) {
                throw new IOException(status.isEmpty() ? "no answer" : status);
            }
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Reads the answer's head, up to its blank line, byte by byte so that nothing after it is read; its status line. */
    private static String statusLine(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length && head.size() < 16 * 1024) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int eol = text.indexOf('\r');
        return eol < 0 ? text : text.substring(0, eol);
    }
}
