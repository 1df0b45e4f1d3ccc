package dev.tclab.runtime.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.StatusMessage;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fabric8 mock API server in CRUD mode, with a simulated scheduler and kubelet in front of it: a created pod is
 * placed on a cluster node (honouring nodeSelector and required pod affinity, otherwise on the least busy node) and
 * runs at once; execs are answered by a small simulation of what the runtime runs in pods (the wiring helper's veth
 * script, the node setup, the kernel probe, and a few shell words: echo, exit, sleep under timeout(1), cat, ip -o
 * link show). Every exec is recorded, so tests assert which pod and container got which command. An attach to a
 * container's standard input and output is answered by a simulated agent on a UML kernel's console
 * ({@link ConsoleAgent}): boot noise, then the agent's framing, every request recorded.
 */
final class MockCluster implements AutoCloseable {

    /** One exec the API server received. */
    record Exec(String pod, String container, List<String> command, boolean tty) {
        String script() {
            return String.join(" ", command);
        }
    }

    private static final Pattern EXEC_PATH = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/exec\\?(.*)");
    private static final Pattern ATTACH_PATH = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/attach\\?(.*)");
    private static final Pattern POD_CREATE = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/?(\\?.*)?");
    private static final Pattern PID_LINE = Pattern.compile("(p\\d+)=\\$\\(pid_of (\\S+) \\S+\\)");
    private static final Pattern VETH_LINE =
            Pattern.compile("ip link add (\\S+) netns \\$(p\\d+) type veth peer name (\\S+) netns \\$(p\\d+)");

    final List<Exec> execs = new CopyOnWriteArrayList<>();

    /**
     * One request a simulated console agent received: its kind (R, E, T, S, I, C...) and its decoded arguments (for E,
     * the perl program's arguments, its source left out).
     */
    record AgentRequest(String pod, String kind, List<String> argv) {
        String script() {
            return String.join(" ", argv);
        }
    }

    /** Every attach the API server received: pod and container. */
    final List<String> attaches = new CopyOnWriteArrayList<>();
    /** The streams each attach asked for (stdin, stdout, stderr, tty), in order. */
    final List<Map<String, String>> attachStreams = new CopyOnWriteArrayList<>();

    final List<AgentRequest> agentRequests = new CopyOnWriteArrayList<>();
    /** The open attachments' sockets, as the API server holds them. */
    private final List<WebSocket> consoles = new CopyOnWriteArrayList<>();
    /** Whether a console agent answers at all (false: a kernel that never comes up). */
    volatile boolean agentsAnswer = true;
    /** When set, lab.pl run by a console agent (an E request) fails with this on its standard error. */
    volatile String labFails;
    /** What the simulated UML kernel's probe reports. */
    final Map<String, Boolean> umlKernel = Map.of("qdisc:cake", true, "qdisc:netem", true, "qdisc:tbf", true);
    /** Streams started, by their marker ({@code TCLAB_STREAM=...}): the simulated pid and start ticks of each. */
    final Map<String, long[]> streams = new ConcurrentHashMap<>();

    private static final String STREAM_MARKER = dev.tclab.runtime.BoundedCommand.STREAM_MARKER + "=";
    /** What the kernel probe reports on each cluster node: feature to supported. */
    final Map<String, Map<String, Boolean>> kernels = new ConcurrentHashMap<>();
    /** Interfaces in each pod's network namespace, by pod UID (the simulated kernel's view). */
    private final Map<String, List<String>> interfaces = new ConcurrentHashMap<>();
    /** Pod name to its UID and cluster node, as scheduled. */
    private final Map<String, String[]> scheduled = new ConcurrentHashMap<>();

    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    private final KubernetesMockServer server;
    private final Dispatcher api;
    final NamespacedKubernetesClient client;

    /** Kept, so the level set on it holds: the mock server logs every request at INFO. */
    private static final java.util.logging.Logger QUIET =
            java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    MockCluster(String... nodes) {
        QUIET.setLevel(java.util.logging.Level.WARNING);
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        this.api = new KubernetesMixedDispatcher(expectations);
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations, new Kubelet(), false);
        server.init();
        this.client = server.createClient();
        for (String node : nodes) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(node)
                            .addToLabels("kubernetes.io/hostname", node)
                            .endMetadata()
                            .build())
                    .create();
            kernels.put(node, Map.of("qdisc:tbf", true, "qdisc:htb", true, "qdisc:cake", false));
        }
    }

    /** Runs the helper DaemonSet as its controller would: one pod of its template on each cluster node. */
    void runDaemonSet(io.fabric8.kubernetes.api.model.apps.DaemonSet daemonSet) {
        for (Node node : client.nodes().list().getItems()) {
            String name = node.getMetadata().getName();
            Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder()
                    .withNewMetadata()
                    .withName(daemonSet.getMetadata().getName() + "-" + name)
                    .withNamespace(daemonSet.getMetadata().getNamespace())
                    .withLabels(daemonSet.getSpec().getTemplate().getMetadata().getLabels())
                    .endMetadata()
                    .withSpec(daemonSet.getSpec().getTemplate().getSpec())
                    .editSpec()
                    .withNodeName(name)
                    .endSpec()
                    .build();
            client.pods().resource(pod).create();
        }
    }

    /** Ends every open attachment, as an API server restart or a dropped connection does. */
    void hangUpConsoles() {
        consoles.forEach(socket -> socket.close(1000, "hung up"));
        consoles.clear();
    }

    /** The cluster node a pod was scheduled on. */
    String nodeOf(String pod) {
        return scheduled.get(pod)[1];
    }

    @Override
    public void close() {
        clock.shutdownNow();
        client.close();
        server.destroy();
    }

    private final class Kubelet extends Dispatcher {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            Matcher exec = EXEC_PATH.matcher(path);
            if (exec.matches()) {
                return exec(request, exec.group(1), exec.group(2), exec.group(3));
            }
            Matcher attach = ATTACH_PATH.matcher(path);
            if (attach.matches()) {
                return attach(attach.group(1), attach.group(2), attach.group(3));
            }
            if (request.method() == HttpMethod.POST && POD_CREATE.matcher(path).matches()) {
                Pod pod = Serialization.unmarshal(request.getUtf8Body(), Pod.class);
                schedule(pod);
                MockResponse created = api.dispatch(new RecordedRequest(
                        request.getHttpVersion(),
                        request.method(),
                        path,
                        request.getHeaders(),
                        new Buffer(Serialization.asJson(pod).getBytes(StandardCharsets.UTF_8))));
                if (created.code() == 201 && pod.getSpec().getNodeName() != null) {
                    // The store gives the pod its own UID: the simulated kernel knows the pod by that one.
                    String uid = stored(
                                    path.replaceAll("\\?.*", "").replaceAll("/$", "") + "/"
                                            + pod.getMetadata().getName(),
                                    Pod.class)
                            .getMetadata()
                            .getUid();
                    scheduled.put(
                            pod.getMetadata().getName(),
                            new String[] {uid, pod.getSpec().getNodeName()});
                    interfaces.put(uid, new CopyOnWriteArrayList<>(List.of("lo", "eth0")));
                }
                return created;
            }
            return api.dispatch(request);
        }
    }

    /** Places the pod and starts it: every container running at once. */
    private void schedule(Pod pod) {
        if (pod.getSpec().getNodeName() == null) {
            pod.getSpec().setNodeName(choose(pod));
        }
        if (pod.getSpec().getNodeName() == null) {
            pod.setStatus(new PodStatusBuilder().withPhase("Pending").build());
            return;
        }
        pod.setStatus(new PodStatusBuilder()
                .withPhase("Running")
                .withHostIP("192.0.2.10")
                .withContainerStatuses(pod.getSpec().getContainers().stream()
                        .map(c -> new ContainerStatusBuilder()
                                .withName(c.getName())
                                .withReady(true)
                                .withNewState()
                                .withNewRunning()
                                .endRunning()
                                .endState()
                                .build())
                        .toList())
                .build());
    }

    private String choose(Pod pod) {
        var affinity = pod.getSpec().getAffinity();
        if (affinity != null && affinity.getPodAffinity() != null) {
            for (PodAffinityTerm term : affinity.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()) {
                Map<String, String> wanted = term.getLabelSelector().getMatchLabels();
                for (Pod other : stored("/api/v1/pods", io.fabric8.kubernetes.api.model.PodList.class)
                        .getItems()) {
                    if (other.getMetadata().getLabels().entrySet().containsAll(wanted.entrySet())) {
                        return other.getSpec().getNodeName();
                    }
                }
            }
            return null;
        }
        Map<String, String> selector = pod.getSpec().getNodeSelector() == null
                ? Map.of()
                : pod.getSpec().getNodeSelector();
        NodeList nodes = stored("/api/v1/nodes", NodeList.class);
        Map<String, Long> load = new LinkedHashMap<>();
        for (Node node : nodes.getItems()) {
            Map<String, String> labels = node.getMetadata().getLabels() == null
                    ? Map.of()
                    : node.getMetadata().getLabels();
            if (labels.entrySet().containsAll(selector.entrySet())) {
                String name = node.getMetadata().getName();
                load.put(
                        name,
                        scheduled.values().stream()
                                .filter(s -> s[1].equals(name))
                                .count());
            }
        }
        return load.entrySet().stream()
                .min(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey)
                .orElse(null);
    }

    /** Reads the store directly: the dispatcher must not call its own server. */
    private <T> T stored(String path, Class<T> type) {
        return Serialization.unmarshal(get(path).getBody().readUtf8(), type);
    }

    private MockResponse get(String path) {
        return api.dispatch(new RecordedRequest(
                "HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(), new Buffer()));
    }

    /** Answers an exec the way the pod's container would, or 404 for a pod that does not exist (any more). */
    private MockResponse exec(RecordedRequest request, String namespace, String pod, String query) {
        MockResponse found = get("/api/v1/namespaces/" + namespace + "/pods/" + pod);
        if (found.code() != 200) {
            return found;
        }
        List<String> command = new ArrayList<>();
        String container = null;
        boolean tty = false;
        for (String parameter : query.split("&")) {
            String[] pair = parameter.split("=", 2);
            String value = pair.length > 1 ? URLDecoder.decode(pair[1], StandardCharsets.UTF_8) : "";
            switch (pair[0]) {
                case "command" -> command.add(value);
                case "container" -> container = value;
                case "tty" -> tty = Boolean.parseBoolean(value);
                default -> {}
            }
        }
        execs.add(new Exec(pod, container, List.copyOf(command), tty));
        Process process = run(pod, command);
        return new MockResponse().withWebSocketUpgrade(process);
    }

    /** Attaches to a container's standard input and output: its main process is a (simulated) agent on a console. */
    private MockResponse attach(String namespace, String pod, String query) {
        MockResponse found = get("/api/v1/namespaces/" + namespace + "/pods/" + pod);
        if (found.code() != 200) {
            return found;
        }
        String container = null;
        Map<String, String> streams = new HashMap<>();
        for (String parameter : query.split("&")) {
            String[] pair = parameter.split("=", 2);
            if (pair[0].equals("container")) {
                container = pair[1];
            } else if (pair.length == 2) {
                streams.put(pair[0], pair[1]);
            }
        }
        attaches.add(pod + "/" + container);
        attachStreams.add(streams);
        return new MockResponse().withWebSocketUpgrade(new ConsoleAgent(pod));
    }

    /**
     * The agent on a UML kernel's console, as far as the runtime's framing goes (sidecar-agent.pl's protocol): what
     * the kernel printed before the attach is not replayed, but a line of boot noise is, to be skipped; every read is
     * acknowledged; P says ready; R answers exit 0, with the probe's lines for the kernel probe and the words of an
     * {@code echo} run in a node; E runs perl source in a fork of the agent, and only lab.pl's loader is known here: its
     * {@code wire} and {@code setup} arguments are read as lab.pl reads them (exit 1 with "not understood" otherwise,
     * or with {@link #labFails}); T and S start a stream that echoes its input (I) until closed (C).
     */
    private final class ConsoleAgent extends WebSocketListener {
        private final String pod;
        private final StringBuilder pending = new StringBuilder();

        ConsoleAgent(String pod) {
            this.pod = pod;
        }

        @Override
        public void onOpen(WebSocket socket, Response response) {
            consoles.add(socket);
            Process.send(socket, 1, "[    2.910000] Run /tclab/init as init process\n");
        }

        @Override
        public void onMessage(WebSocket socket, ByteString bytes) {
            onMessage(socket, bytes.toByteArray());
        }

        @Override
        public synchronized void onMessage(WebSocket socket, byte[] bytes) {
            if (bytes.length < 2 || bytes[0] != 0 || !agentsAnswer) {
                return;
            }
            Process.send(socket, 1, "@@tclab-ack " + (bytes.length - 1) + "\n");
            pending.append(new String(bytes, 1, bytes.length - 1, StandardCharsets.US_ASCII));
            int newline;
            while ((newline = pending.indexOf("\n")) >= 0) {
                String line = pending.substring(0, newline);
                pending.delete(0, newline + 1);
                Process.send(socket, 1, answer(line.split(" ")));
            }
        }

        private String answer(String[] fields) {
            String kind = fields[0];
            List<String> argv = switch (kind) {
                case "R", "S", "E" -> decode(fields[2]);
                case "T", "U" -> decode(fields[4]);
                default -> List.of(fields).subList(1, fields.length);
            };
            String source = kind.equals("E") ? argv.get(0) : null;
            if (source != null) {
                argv = argv.subList(1, argv.size());
            }
            agentRequests.add(new AgentRequest(pod, kind, argv));
            return switch (kind) {
                case "P" -> "@@tclab-ready\n";
                case "R" -> {
                    String out = run(argv);
                    yield "@@tclab-agent " + fields[1] + " 0 0 " + out.length() + " 0\n" + out;
                }
                case "E" -> {
                    String err = runLab(source, argv);
                    yield "@@tclab-agent " + fields[1] + " " + (err.isEmpty() ? 0 : 1) + " 0 0 "
                            + err.getBytes(StandardCharsets.UTF_8).length + "\n" + err;
                }
                case "I" -> {
                    String input = new String(HexFormat.of().parseHex(fields[2]), StandardCharsets.UTF_8);
                    yield "@@tclab-out " + fields[1] + " " + input.length() + "\n" + input;
                }
                case "C" -> "@@tclab-end " + fields[1] + " -1\n";
                default -> "";
            };
        }

        private String run(List<String> argv) {
            String script = String.join(" ", argv);
            if (script.contains("kernel $(uname -r)")) {
                StringBuilder out = new StringBuilder();
                umlKernel.forEach((feature, yes) -> out.append(feature).append(yes ? " yes\n" : " no\n"));
                return out.append("kernel 6.1.176 (uml sim)\n").toString();
            }
            int inNode = argv.indexOf("--");
            if (inNode >= 0 && inNode + 1 < argv.size() && argv.get(inNode + 1).equals("echo")) {
                return String.join(" ", argv.subList(inNode + 2, argv.size())) + "\n";
            }
            return "";
        }

        /** What lab.pl would print on its standard error for these arguments: nothing when it succeeds. */
        private String runLab(String source, List<String> args) {
            // The runtime sends lab.pl's loader; the pod's environment carries lab.pl itself (TCLAB_LAB).
            if (!source.contains("/tclab/lab.pl")) {
                return "the simulated agent runs lab.pl only\n";
            }
            if (labFails != null) {
                return labFails + "\n";
            }
            String mode = args.isEmpty() ? "" : args.get(0);
            if (mode.equals("wire")
                    && args.size() >= 5
                    && String.join(" ", args.subList(1, 5)).matches("\\d+ \\d+ \\d+ \\d+")) {
                for (String arg : args.subList(5, args.size())) {
                    if (!arg.matches("(?s)(node|env|sysctl)=.+") && !arg.matches("link=[^,]+,[^,]+,[^,]+,[^,]+")) {
                        return "not understood: " + arg + "\n";
                    }
                }
                return "";
            }
            if (mode.equals("setup") && args.size() % 2 == 1) {
                for (int i = 1; i < args.size(); i += 2) {
                    if (!args.get(i).startsWith("node=") || !args.get(i + 1).startsWith("script=")) {
                        return "not understood: " + args.get(i) + " " + args.get(i + 1) + "\n";
                    }
                }
                return "";
            }
            return "usage: wire TMP HOME RUN PIDS SPEC... | setup node=NAME script=SCRIPT...\n";
        }

        private static List<String> decode(String hex) {
            return List.of(new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8).split("\0", -1));
        }
    }

    /** The simulated run of a command: what it prints, how it ends, and whether it echoes its input (cat). */
    private final class Process extends WebSocketListener {
        private static final long FIRST_FRAME_MILLIS = 5;
        final StringBuilder out = new StringBuilder();
        final StringBuilder err = new StringBuilder();
        int exit;
        long delayMillis;
        boolean echoes;

        /**
         * A kubelet's first frames come once the process runs, not in the upgrade's own turn. Frames written from inside
         * the mock server's upgrade were lost about once in a few hundred runs (a stream that ended with no output, and
         * one whose end never came), so the process writes from the clock, a few milliseconds after the upgrade.
         */
        @Override
        public void onOpen(WebSocket socket, Response response) {
            clock.schedule(
                    () -> {
                        send(socket, 1, out.toString());
                        send(socket, 2, err.toString());
                        if (!echoes) {
                            clock.schedule(() -> end(socket), delayMillis, TimeUnit.MILLISECONDS);
                        }
                    },
                    FIRST_FRAME_MILLIS,
                    TimeUnit.MILLISECONDS);
        }

        @Override
        public void onMessage(WebSocket socket, ByteString bytes) {
            onMessage(socket, bytes.toByteArray());
        }

        @Override
        public void onMessage(WebSocket socket, byte[] bytes) {
            if (echoes && bytes.length > 1 && bytes[0] == 0) {
                send(socket, 1, new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8));
            }
        }

        private void end(WebSocket socket) {
            Status status = exit == 0
                    ? new StatusBuilder().withStatus("Success").build()
                    : new StatusBuilder()
                            .withStatus("Failure")
                            .withReason("NonZeroExitCode")
                            .withNewDetails()
                            .addNewCause()
                            .withReason("ExitCode")
                            .withMessage(Integer.toString(exit))
                            .endCause()
                            .endDetails()
                            .build();
            socket.send(new StatusMessage(status).getBytes());
            socket.close(1000, "");
        }

        private static void send(WebSocket socket, int channel, String text) {
            if (text.isEmpty()) {
                return;
            }
            byte[] payload = text.getBytes(StandardCharsets.UTF_8);
            byte[] frame = new byte[payload.length + 1];
            frame[0] = (byte) channel;
            System.arraycopy(payload, 0, frame, 1, payload.length);
            socket.send(frame);
        }
    }

    private Process run(String pod, List<String> command) {
        Process process = new Process();
        List<String> words = new ArrayList<>(command);
        long timeoutMillis = Long.MAX_VALUE;
        while (!words.isEmpty()) {
            if (words.get(0).equals("env")) {
                words.remove(0);
                while (!words.isEmpty() && words.get(0).contains("=")) {
                    String variable = words.remove(0);
                    if (variable.startsWith(STREAM_MARKER)) {
                        streams.putIfAbsent(variable, new long[] {1000 + streams.size(), 424242 + streams.size()});
                    }
                }
            } else if (words.get(0).equals("timeout")) {
                timeoutMillis = Long.parseLong(words.get(3)) * 1000;
                words.subList(0, 4).clear();
            } else {
                break;
            }
        }
        String script =
                words.size() == 3 && words.get(0).equals("sh") && words.get(1).equals("-c")
                        ? words.get(2)
                        : String.join(" ", words);
        String uid = scheduled.get(pod)[0];
        if (script.contains("pid_of()")) {
            wire(script, process);
        } else if (script.contains("kernel $(uname -r)")) {
            kernels.get(scheduled.get(pod)[1])
                    .forEach((feature, yes) -> process.out.append(feature).append(yes ? " yes\n" : " no\n"));
            process.out.append("kernel 6.1.0-sim\n");
        } else if (script.contains("cluster$n")) {
            List<String> ifaces = interfaces.get(uid);
            ifaces.replaceAll(i -> i.equals("eth0") ? "cluster0" : i);
        } else if (script.startsWith("ip link set lo up")) {
            for (String line : script.split("\n")) {
                Matcher up =
                        Pattern.compile("ip link set (\\S+) up \\|\\| exit 1").matcher(line);
                if (up.matches() && !interfaces.get(uid).contains(up.group(1))) {
                    process.err
                            .append("Cannot find device \"")
                            .append(up.group(1))
                            .append("\"\n");
                    process.exit = 1;
                    return process;
                }
            }
        } else if (script.contains("grep -qsaxz '" + STREAM_MARKER)) {
            // The stream lookup: the process an exec started with this marker, as "pid start-ticks".
            Matcher marker = Pattern.compile("'(" + STREAM_MARKER + "[^']+)'").matcher(script);
            long[] stream = marker.find() ? streams.get(marker.group(1)) : null;
            if (stream != null) {
                process.out.append(stream[0]).append(' ').append(stream[1]).append('\n');
            } else {
                process.exit = 1;
            }
        } else if (!script.startsWith("same() {")) {
            shell(script, uid, timeoutMillis, process);
        }
        return process;
    }

    /** The helper's veth script: each pN names a pod by UID; each link adds an interface to two pods. */
    private void wire(String script, Process process) {
        Map<String, String> pods = new HashMap<>();
        for (String line : script.split("\n")) {
            Matcher pid = PID_LINE.matcher(line);
            if (pid.find()) {
                if (!interfaces.containsKey(pid.group(2))) {
                    process.err
                            .append("no process of pod ")
                            .append(pid.group(2))
                            .append('\n');
                    process.exit = 1;
                    return;
                }
                pods.put(pid.group(1), pid.group(2));
            }
            Matcher veth = VETH_LINE.matcher(line);
            if (veth.matches()) {
                List<String> a = interfaces.get(pods.get(veth.group(2)));
                List<String> b = interfaces.get(pods.get(veth.group(4)));
                if (a.contains(veth.group(1)) || b.contains(veth.group(3))) {
                    process.err.append("RTNETLINK answers: File exists\n");
                    process.exit = 2;
                    return;
                }
                a.add(veth.group(1));
                b.add(veth.group(3));
            }
        }
    }

    private void shell(String script, String uid, long timeoutMillis, Process process) {
        for (String part : script.split("[;\n]")) {
            String word = part.trim();
            if (word.startsWith("echo ") && word.endsWith(">&2")) {
                process.err.append(word, 5, word.length() - 3).append('\n');
                trimTrailingSpace(process.err);
            } else if (word.startsWith("echo ")) {
                process.out.append(word.substring(5)).append('\n');
            } else if (word.startsWith("exit ")) {
                process.exit = Integer.parseInt(word.substring(5));
                return;
            } else if (word.startsWith("sleep ")) {
                process.delayMillis += (long) (Double.parseDouble(word.substring(6)) * 1000);
                if (process.delayMillis > timeoutMillis) {
                    process.delayMillis = timeoutMillis;
                    process.exit = 124;
                    return;
                }
            } else if (word.equals("cat")) {
                process.echoes = true;
            } else if (word.equals("ip -o link show")) {
                int index = 1;
                for (String iface : interfaces.get(uid)) {
                    String peer = iface.equals("lo") || iface.startsWith("cluster") ? "" : "@if" + (index + 10);
                    process.out
                            .append(index++)
                            .append(": ")
                            .append(iface)
                            .append(peer)
                            .append(": <UP> mtu 1500\n");
                }
            } else if (word.equals("true") || word.isEmpty()) {
                process.exit = 0;
            } else {
                process.err.append("sim: ").append(word).append(": not simulated\n");
                process.exit = 127;
                return;
            }
        }
    }

    private static void trimTrailingSpace(StringBuilder text) {
        int newline = text.length() - 1;
        while (newline > 0 && text.charAt(newline - 1) == ' ') {
            text.deleteCharAt(newline - 1);
            newline--;
        }
    }
}
