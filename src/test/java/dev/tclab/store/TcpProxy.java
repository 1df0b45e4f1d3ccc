package dev.tclab.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay between the app and a real database server that a test can cut (every connection closed, new ones
 * refused) and restore: a database outage during a run, without stopping a server other tests use.
 */
final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        }
        restore();
    }

    int port() {
        return port;
    }

    /** Closes every relayed connection and stops listening: the database is gone. */
    synchronized void cut() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    /** Listens again: the database is back. */
    synchronized void restore() throws IOException {
        ServerSocket listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = listening;
        Thread acceptor = new Thread(() -> accept(listening), "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept(ServerSocket listening) {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed by cut(), or the target refused: the client sees its connection end
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16384];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int n; (n = in.read(buffer)) > 0; ) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side went away
                    } finally {
                        try {
                            from.close();
                            to.close();
                        } catch (IOException ignored) {
                            // already closed
                        }
                    }
                },
                "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
