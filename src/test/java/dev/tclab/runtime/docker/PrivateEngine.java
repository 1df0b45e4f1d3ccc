package dev.tclab.runtime.docker;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A second, private Docker engine on this host for one test: its own dockerd listening on TCP with TLS (a CA, server
 * and client certificates made here with openssl), its own data root, exec root (so its own containerd), pid file,
 * socket and config, no bridge and no iptables or forwarding changes. It runs in a network namespace of its own: a
 * dockerd with {@code --bridge none} deletes the host's {@code docker0} (seen here; the shared engine's default-bridge
 * containers need it). Its TLS port is opened on the host's 127.0.0.1 by systemd-socket-activate, which hands the
 * listening socket to dockerd ({@code -H fd://}) as it starts in its namespace. {@link #close} stops it and removes
 * the namespace and every file it made.
 */
final class PrivateEngine implements AutoCloseable {

    private static final Duration READY_WITHIN = Duration.ofSeconds(90);

    private final Path dir;
    private final int port;
    private final String netns;
    private final Process dockerd;

    private PrivateEngine(Path dir, int port, String netns, Process dockerd) {
        this.dir = dir;
        this.port = port;
        this.netns = netns;
        this.dockerd = dockerd;
    }

    /** Makes the certificates, starts the engine and waits until it answers on its socket. */
    static PrivateEngine start(Path dir, int port) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        makeCertificates(dir);
        Files.writeString(dir.resolve("daemon.json"), "{}\n");
        String netns = dir.getFileName().toString();
        Result created = run("sh", "-c", "ip netns add " + netns + " && ip netns exec " + netns + " ip link set lo up");
        if (created.exitCode() != 0) {
            throw new AssertionError("could not make the private engine's network namespace: " + created.output());
        }
        // The socket activator execs nsenter, which execs dockerd: one process, whose pid the activator announces
        // (LISTEN_PID) as dockerd's -H fd:// requires. nsenter, not "ip netns exec": that remounts /sys, hiding the
        // cgroup mounts dockerd needs.
        List<String> command = List.of(
                "systemd-socket-activate",
                "-l",
                "127.0.0.1:" + port,
                "nsenter",
                "--net=/run/netns/" + netns,
                "dockerd",
                "--config-file",
                dir.resolve("daemon.json").toString(),
                "--data-root",
                dir.resolve("data").toString(),
                "--exec-root",
                dir.resolve("exec").toString(),
                "--pidfile",
                dir.resolve("dockerd.pid").toString(),
                "-H",
                "unix://" + dir.resolve("docker.sock"),
                "-H",
                "fd://",
                "--tlsverify",
                "--tlscacert",
                dir.resolve("ca.pem").toString(),
                "--tlscert",
                dir.resolve("server-cert.pem").toString(),
                "--tlskey",
                dir.resolve("server-key.pem").toString(),
                "--bridge",
                "none",
                "--iptables=false",
                "--ip-forward=false",
                "--ip-masq=false",
                "--userland-proxy=false");
        Process dockerd = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("dockerd.log").toFile())
                .start();
        PrivateEngine engine = new PrivateEngine(dir, port, netns, dockerd);
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        // The activator starts dockerd on the first connection to the port.
        while (!connects(port)) {
            if (!dockerd.isAlive() || System.nanoTime() > deadline) {
                engine.close();
                throw new AssertionError("the private engine's port did not open; see " + dir.resolve("dockerd.log"));
            }
            Thread.sleep(100);
        }
        while (run("docker", "-H", engine.socket(), "info").exitCode() != 0) {
            if (!dockerd.isAlive() || System.nanoTime() > deadline) {
                engine.close();
                throw new AssertionError("the private dockerd did not answer within " + READY_WITHIN + "; see "
                        + dir.resolve("dockerd.log"));
            }
            Thread.sleep(250);
        }
        return engine;
    }

    private static boolean connects(int port) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A free port for the engine's TCP listener. */
    static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    /** Copies an image from the shared engine into this one (docker save piped to docker load). */
    void loadImage(String image) throws IOException, InterruptedException {
        Result loaded = run("sh", "-c", "docker save " + image + " | docker -H " + socket() + " load");
        if (loaded.exitCode() != 0) {
            throw new AssertionError("loading " + image + " into the private engine failed: " + loaded.output());
        }
    }

    String socket() {
        return "unix://" + dir.resolve("docker.sock");
    }

    /** DOCKER_HOST for clients: the TLS listener. */
    String tcpHost() {
        return "tcp://127.0.0.1:" + port;
    }

    /** A DOCKER_CERT_PATH whose certificate the engine accepts: ca.pem, cert.pem, key.pem. */
    Path clientCerts() {
        return dir.resolve("client");
    }

    /** A DOCKER_CERT_PATH that trusts the engine but whose certificate another CA signed: the engine refuses it. */
    Path strangerCerts() {
        return dir.resolve("stranger");
    }

    /** Lines of the engine's containers that carry {@code label}, as {@code docker ps -a} lists them. */
    String containers(String label) throws IOException, InterruptedException {
        return run("docker", "-H", socket(), "ps", "-aq", "--filter", "label=" + label)
                .output()
                .strip();
    }

    /** The same, on the shared engine (the host's default {@code docker}). */
    static String sharedContainers(String label) throws IOException, InterruptedException {
        return run("docker", "ps", "-aq", "--filter", "label=" + label).output().strip();
    }

    /**
     * Stops the engine (SIGTERM, which stops its containers and its containerd) and removes its namespace and
     * directory.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        if (dockerd.isAlive()) {
            dockerd.destroy();
            if (!dockerd.waitFor(60, TimeUnit.SECONDS)) {
                dockerd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        run("ip", "netns", "delete", netns);
        // Anything still mounted under the data root (a killed engine leaves its overlay mounts) goes first.
        run("sh", "-c", "grep -o ' " + dir + "[^ ]*' /proc/self/mounts | sort -r | xargs -r -n1 umount -l");
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private static void makeCertificates(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("client"));
        Files.createDirectories(dir.resolve("stranger"));
        String script = String.join(
                "\n",
                "set -e",
                "cd '" + dir + "'",
                "req() { openssl req -new -newkey rsa:2048 -nodes -keyout \"$1\" -out \"$2\" -subj \"/CN=$3\" 2>/dev/null; }",
                "ca() { openssl req -x509 -newkey rsa:2048 -nodes -days 2 -keyout \"$1\" -out \"$2\" -subj \"/CN=$3\" 2>/dev/null; }",
                "sign() { openssl x509 -req -days 2 -in \"$1\" -CA \"$2\" -CAkey \"$3\" -CAcreateserial -out \"$4\" -extfile \"$5\" 2>/dev/null; }",
                "ca ca-key.pem ca.pem tclab-test-engine-ca",
                "ca stranger-ca-key.pem stranger-ca.pem tclab-test-stranger-ca",
                "printf 'subjectAltName=IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > server.ext",
                "printf 'extendedKeyUsage=clientAuth\\n' > client.ext",
                "req server-key.pem server.csr 127.0.0.1",
                "sign server.csr ca.pem ca-key.pem server-cert.pem server.ext",
                "req client/key.pem client.csr tclab-app",
                "sign client.csr ca.pem ca-key.pem client/cert.pem client.ext",
                "cp ca.pem client/ca.pem",
                "req stranger/key.pem stranger.csr tclab-app",
                "sign stranger.csr stranger-ca.pem stranger-ca-key.pem stranger/cert.pem client.ext",
                "cp ca.pem stranger/ca.pem");
        Result made = run("sh", "-c", script);
        if (made.exitCode() != 0) {
            throw new AssertionError("making the test's certificates failed: " + made.output());
        }
    }

    record Result(int exitCode, String output) {}

    private static Result run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command)))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }
}
