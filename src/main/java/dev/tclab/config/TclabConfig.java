package dev.tclab.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Every tclab setting, under the prefix {@code tclab}. Each has a working default. */
@ConfigMapping(prefix = "tclab")
public interface TclabConfig {

    Lab lab();

    Learner learner();

    Lessons lessons();

    Grading grading();

    Docker docker();

    /** What runs the labs: {@code docker} (one engine) or {@code kubernetes} (pods on a cluster). */
    @WithDefault("docker")
    String runtime();

    Kubernetes kubernetes();

    Terminal terminal();

    Stats stats();

    Database database();

    Workshop workshop();

    /**
     * Folder of the app's durable state (the embedded H2 database); a relative path is resolved against the working
     * directory ({@link AbsoluteDataDir}), so this reads as an absolute path. Created on first start. Also named in
     * application.properties, which builds the H2 URL from it.
     */
    @WithDefault("data")
    String dataDir();

    Quota quota();

    Guessing guessing();

    Sockets sockets();

    /**
     * Warm pool: {@code tclab.pool."<lesson slug>"=N} keeps N labs of that lesson started and unowned, handed to the
     * next learners who press Start. Pooled labs count against max-running. None by default.
     */
    Map<String, Integer> pool();

    /** Token that lesson authors send (Authorization: Bearer ...) to run self-tests over the API; unset = off. */
    Optional<String> authorToken();

    /** Identifies this app instance in container labels, so two instances can share one Docker engine. */
    @WithDefault("tclab")
    String instance();

    interface Lab {
        /** Image every lab node runs unless its lab.yml names another. Built by lab-image/build.sh. */
        @WithDefault("tclab/lab-node:1")
        String image();

        /** Most labs running at once on this server; the next start waits in the start queue. */
        @WithDefault("30")
        int maxRunning();

        /** Most starts waiting for a free slot; beyond it a start is refused with "server is full". */
        @WithDefault("60")
        int queueSize();

        /** Lab starts the engine is asked to run at once; more wait their turn (see docs/BENCHMARKS.md). */
        @WithDefault("4")
        int concurrentStarts();

        /**
         * How long the warm pool waits after the latest Start (a hand-out or a learner's start) before it starts
         * labs again: a class pressing Start at once is answered before the engine is busy refilling.
         */
        @WithDefault("3s")
        Duration poolRefillQuiet();

        /**
         * Most pooled labs starting at once while the pool refills; fewer than concurrent-starts, so that a learner's
         * start always finds a start worker free.
         */
        @WithDefault("2")
        int poolRefillStarts();

        /** A lab nobody has touched for this long is stopped. */
        @WithDefault("45m")
        Duration idleTimeout();

        /**
         * A lab with no page open on it (no terminal or statistics socket) and untouched for this long is stopped,
         * so forgotten tabs do not hold slots; at least idle-timeout turns this off.
         */
        @WithDefault("10m")
        Duration unwatchedTimeout();

        /** A lab is stopped this long after it started, however busy. */
        @WithDefault("4h")
        Duration maxLifetime();

        /** How often idle and expired labs are looked for. */
        @WithDefault("30s")
        Duration cullInterval();

        /** How long a lab may take to become ready before its start fails. */
        @WithDefault("60s")
        Duration startTimeout();

        /** Memory limit of each lab node, in MiB. */
        @WithDefault("256")
        int memoryMib();

        /** CPU limit of each lab node, in cores. */
        @WithDefault("1.0")
        double cpus();

        /** Process limit of each lab node. */
        @WithDefault("256")
        long pids();

        /** Image of the app's wiring helper container (needs ip from iproute2); defaults to the lab image. */
        Optional<String> helperImage();

        /**
         * Whether a stopping server leaves its running labs running, for the next start to adopt (a redeploy keeps
         * the class going); false stops them.
         */
        @WithDefault("true")
        boolean keepOnShutdown();

        /**
         * Whether a learner runs one lab at a time: starting another lesson's lab is answered with an offer to stop
         * the running one first (409); false lets a learner run several, up to the live-labs-per-learner quota.
         */
        @WithDefault("true")
        boolean onePerLearner();

        /**
         * Most MiB of packets a lab's qdiscs may hold queued (kernel memory no node limit counts); above it, the
         * root qdisc holding the most is removed and the learner told. Watched while the lab's statistics are.
         */
        @WithDefault("32")
        int maxQdiscBacklogMib();

        /**
         * Image of the measurement sidecars (one per node, in the node's network namespace, running the platform's
         * own tc, ip, ping and iperf3 for checks and statistics); defaults to the lab image.
         */
        Optional<String> measurementImage();

        /** Size of each node's /tmp (a tmpfs: the root filesystem is read-only), in MiB; counts against its memory. */
        @WithDefault("64")
        int tmpMib();

        /** Size of each node's /root (a tmpfs, for shell history and the learner's files), in MiB. */
        @WithDefault("16")
        int homeMib();

        /** Size of each node's /run (a tmpfs, for pid files), in MiB. */
        @WithDefault("8")
        int runMib();

        /**
         * Image of User-Mode Linux labs (lab.yml {@code kernel: uml}): the lab image with Debian's user-mode-linux and
         * kmod. Built by {@code lab-image/build.sh --uml}.
         */
        @WithDefault("tclab/lab-uml:2")
        String umlImage();

        /** Memory of a UML lab's kernel (all its nodes), in MiB; its container's limit is this and 96 MiB more. */
        @WithDefault("192")
        int umlMemoryMib();
    }

    interface Docker {
        /** Docker engine endpoint, e.g. unix:///var/run/docker.sock or tcp://host:2376. Default: DOCKER_HOST, then the local socket. */
        Optional<String> host();

        /** How long to wait for a connection to the engine before calling it unreachable. */
        @WithDefault("3s")
        Duration connectTimeout();

        /** How often the engine is checked, so an outage is noticed and a recovery picked up by itself. */
        @WithDefault("5s")
        Duration checkInterval();
    }

    interface Kubernetes {
        /** Namespace of the lab pods, their NetworkPolicy and the wiring helper DaemonSet. */
        @WithDefault("tclab-labs")
        String namespace();

        /** Name of the wiring helper DaemonSet (one pod per cluster node, made by deploy/kubernetes). */
        @WithDefault("tclab-wiring")
        String helperName();
    }

    interface Learner {
        /** Key that signs the learner cookie. When unset, a random key is made once and kept in the database. */
        Optional<String> cookieSecret();
    }

    interface Grading {
        /** Most throughput measurements (iperf3 loads) running at once on this host; more wait for a slot. */
        @WithDefault("2")
        int maxConcurrentMeasurements();

        /**
         * The rate of capped flows one measurement slot holds, in Mbit/s: a flow the platform caps at R takes R / this
         * of a slot (at least 1/20); uncapped flows take a whole slot.
         */
        @WithDefault("1000")
        double slotMbps();

        /**
         * Whether measurement admission counts other work on the labs' host: while programs other than the labs and the
         * platform keep half a core or more busy, only the share of the slots they leave is given out (docs/checks.md,
         * "Measurement slots"). The test suite turns it off: its parallel forks are such other work to each other.
         */
        @WithDefault("true")
        boolean countOtherCpu();

        /**
         * Whether checks take the fast paths: the cheap reads first, a failing configuration gate skipping the loads,
         * the first load's servers started alongside, and the reads listed right after a load run in its client's
         * exec. {@code false} runs every check the plain way (every measurement its own command, in the listed order,
         * no early gate): slower, with the same verdicts, which the semantics corpus proves both ways.
         */
        @WithDefault("true")
        boolean fastPaths();

        /** How often checks marked {@code watch: true} are re-run in running labs until they pass. */
        @WithDefault("10s")
        Duration watchInterval();

        /**
         * Check runs kept per learner and step, the newest; older ones are deleted in the background (a step's attempt
         * count and first pass are kept apart from the runs, so they stay).
         */
        @WithDefault("10")
        int keepRunsPerStep();

        /** Check runs started longer ago than this are deleted in the background, but for each step's latest. */
        @WithDefault("30d")
        Duration keepRunsFor();
    }

    interface Lessons {
        /** A folder of extra lesson folders, read at every page load, so a host can add lessons without a rebuild. */
        Optional<String> externalDir();
    }

    interface Terminal {
        /** How long a shell outlives its closed WebSocket, so a reconnecting page finds the same shell; 0 ends it at once. */
        @WithDefault("60s")
        Duration gracePeriod();

        /** Recent output kept per shell and replayed when the page reconnects, in bytes. */
        @WithDefault("65536")
        int replayBytes();

        /** Output queued for a slow browser beyond this many bytes is skipped (and the learner told), to bound memory. */
        @WithDefault("4194304")
        int maxPendingBytes();

        /**
         * Input a shell does not read is dropped; a socket whose dropped input passes this many bytes within
         * {@code flood-window} is closed (4413), so a flood costs the server at most this much work.
         */
        @WithDefault("16777216")
        long maxDroppedBytes();

        /** The window of {@code max-dropped-bytes}. */
        @WithDefault("10s")
        Duration floodWindow();

        /**
         * Input a terminal socket has read and its shell's queue not taken yet, in bytes; beyond it the socket stops
         * reading (TCP holds the sender back) until half of it was taken, so a flood waits outside the server's heap.
         */
        @WithDefault("1048576")
        long maxInputInFlight();
    }

    interface Stats {
        /** Time between two samples of a node's tc counters; between 100ms (10 Hz) and 60s. */
        @WithDefault("1s")
        Duration interval();

        /** How far back a page that (re)connects gets each lab's samples, so a reload keeps its curves; 0s keeps none. */
        @WithDefault("5m")
        Duration history();

        /** Most MiB of samples kept for one lab; beyond it its oldest samples go first. */
        @WithDefault("4")
        int historyLabMib();

        /** Most MiB of samples kept for all labs together; beyond it the biggest lab's oldest samples go first. */
        @WithDefault("64")
        int historyTotalMib();
    }

    interface Database {
        /** Which database keeps the app's state: h2 (embedded, in tclab.data-dir) or postgresql (tclab.database.url). */
        @WithDefault("h2")
        Kind kind();

        /** JDBC URL of the PostgreSQL database, e.g. jdbc:postgresql://db.example:5432/tclab; used with kind=postgresql. */
        Optional<String> url();

        /** PostgreSQL user; used with kind=postgresql. */
        Optional<String> username();

        /** PostgreSQL password; used with kind=postgresql. */
        Optional<String> password();

        enum Kind {
            H2,
            POSTGRESQL
        }
    }

    /** Limits on starting labs per client, so one person (clearing cookies, scripting) cannot take every slot. */
    interface Quota {
        /**
         * Live labs from one client address (IPv6: one /64). A classroom behind one NAT address shares this limit:
         * raise it to the class size there.
         */
        @WithDefault("10")
        int liveLabsPerAddress();

        /** Live labs of one learner (one learner cookie), across lessons. */
        @WithDefault("3")
        int liveLabsPerLearner();

        /** Lab starts one client address may make in a burst before it must wait (token bucket size). */
        @WithDefault("10")
        int startBurstPerAddress();

        /** After a burst, one more start per this interval from the same address (token bucket refill). */
        @WithDefault("10s")
        Duration startIntervalPerAddress();
    }

    /** Limits on guessing secrets (join codes, host passwords), per client address and per target. */
    interface Guessing {
        /**
         * Wrong workshop join codes one client address may send within {@code join-failure-window}; then it waits
         * (429 with Retry-After). A classroom behind one NAT address shares it.
         */
        @WithDefault("10")
        int joinFailuresPerAddress();

        /** Wrong join codes from all addresses together within {@code join-failure-window} (guessing from many). */
        @WithDefault("200")
        int joinFailuresTotal();

        /** The sliding window of the join-code limits. */
        @WithDefault("1m")
        Duration joinFailureWindow();

        /** Wrong host passwords that cost nothing; each further one doubles the wait before the next try (1 s, 2 s, ...). */
        @WithDefault("3")
        int signInFreeFailures();

        /** Wrong passwords for one host name that lock it for {@code sign-in-lock}; one address may make twice as many. */
        @WithDefault("10")
        int signInLockAfter();

        /** How long a locked host name or address waits; failures are also forgotten this long after the last. */
        @WithDefault("15m")
        Duration signInLock();
    }

    /** Bounds on the lab pages' WebSockets (docs/SECURITY.md, "Sockets"). */
    interface Sockets {
        /** WebSockets the whole app holds (terminals and statistics); the next is refused with 1013 until one closes. */
        @WithDefault("2000")
        int max();

        /** Statistics sockets of one learner; a newer one closes the oldest (4409), as a terminal opened twice does. */
        @WithDefault("4")
        int statsPerLearner();

        /** A statistics socket whose page has not taken a frame for this long is closed (1008). */
        @WithDefault("30s")
        Duration idleReadTimeout();

        /** WebSocket opens of one learner (or one address without a learner) within opens-window; more get 429. */
        @WithDefault("60")
        int opensPerLearner();

        /** The sliding window of opens-per-learner. */
        @WithDefault("1m")
        Duration opensWindow();
    }

    interface Workshop {
        /** How long a host stays signed in; after this the host signs in again. */
        @WithDefault("12h")
        Duration hostSessionTimeout();

        /**
         * The address learners reach this server at (http://10.1.2.3:8080, say), for the join link the dashboard, the
         * projector and its QR code show; unset, they show the address the host's browser used, which is 127.0.0.1
         * when the host browses on the server itself.
         */
        Optional<String> publicUrl();
    }
}
