package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link GroupCommit} on a real (in-memory) H2: claims of rows, as the lab registry's hand-outs make them. */
class GroupCommitTest {

    /** A claim of row {@code id} for {@code owner}; "bad" rows write to a table that does not exist. */
    record Claim(String id, String owner) {}

    private final String url = "jdbc:h2:mem:group-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final AtomicInteger connectionsOpened = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private Connection keepAlive;

    @BeforeEach
    void table() throws SQLException {
        keepAlive = DriverManager.getConnection(url);
        try (Statement s = keepAlive.createStatement()) {
            s.execute("CREATE TABLE lab (id VARCHAR(20) PRIMARY KEY, owner VARCHAR(20))");
            for (int i = 0; i < 12; i++) {
                s.execute("INSERT INTO lab (id) VALUES ('lab-" + i + "')");
            }
        }
    }

    @AfterEach
    void close() throws SQLException {
        threads.shutdownNow();
        keepAlive.close();
    }

    private Connection open() throws SQLException {
        connectionsOpened.incrementAndGet();
        return DriverManager.getConnection(url);
    }

    private static void awaitRelease(CountDownLatch release) throws SQLException {
        try {
            release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new SQLException(e);
        }
    }

    private static boolean claim(Connection c, Claim claim) throws SQLException {
        String table = claim.id().startsWith("bad") ? "missing_table" : "lab";
        try (PreparedStatement s =
                c.prepareStatement("UPDATE " + table + " SET owner = ? WHERE id = ?" + " AND owner IS NULL")) {
            s.setString(1, claim.owner());
            s.setString(2, claim.id());
            return s.executeUpdate() == 1;
        }
    }

    private String ownerOf(String id) throws SQLException {
        try (PreparedStatement s = keepAlive.prepareStatement("SELECT owner FROM lab WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Runs the claim on a thread of its own and returns once that thread waits for the commit under way. */
    private Future<Boolean> claimWaiting(GroupCommit<Claim> group, Claim claim) throws InterruptedException {
        return claimWaiting(group, claim, Thread.State.WAITING);
    }

    /** Runs the claim on a thread of its own and returns once that thread is in {@code state}. */
    private Future<Boolean> claimWaiting(GroupCommit<Claim> group, Claim claim, Thread.State state)
            throws InterruptedException {
        BlockingQueue<Thread> started = new ArrayBlockingQueue<>(1);
        Future<Boolean> result = threads.submit(() -> {
            started.add(Thread.currentThread());
            return group.run(claim);
        });
        Thread thread = started.take();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (thread.getState() != state) {
            assertThat(System.nanoTime()).as("the claim waits (%s)", state).isLessThan(deadline);
            Thread.sleep(5);
        }
        return result;
    }

    /** Claims whose writer holds the claim by "first" until {@code release}: its commit is under way meanwhile. */
    private GroupCommit<Claim> heldByFirst(CountDownLatch release) {
        return new GroupCommit<>(
                this::open,
                (c, claim) -> {
                    if (claim.owner().equals("first")) {
                        awaitRelease(release);
                    }
                    return claim(c, claim);
                },
                Comparator.comparing(Claim::id));
    }

    @Test
    void writesArrivingDuringACommitAreCommittedTogetherInTheNextOneEachWithItsOwnAnswer() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Claim> group = heldByFirst(release);
        Future<Boolean> first = claimWaiting(group, new Claim("lab-0", "first"), Thread.State.TIMED_WAITING);
        List<Future<Boolean>> class_ = new ArrayList<>();
        for (int i = 1; i < 11; i++) {
            class_.add(claimWaiting(group, new Claim("lab-" + i, "learner-" + i)));
        }
        // The same pooled lab claimed twice in the group: only the first claim gets it.
        Future<Boolean> late = claimWaiting(group, new Claim("lab-1", "late"));
        assertThat(class_).as("nobody returns before their commit").noneMatch(Future::isDone);
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        int won = 0;
        for (Future<Boolean> claim : class_) {
            won += claim.get(10, TimeUnit.SECONDS) ? 1 : 0;
        }
        boolean lateWon = late.get(10, TimeUnit.SECONDS);
        assertThat(won + (lateWon ? 1 : 0)).as("lab-1 goes to one claim only").isEqualTo(10);
        assertThat(connectionsOpened)
                .as("the first write's commit, then one for all that waited")
                .hasValue(2);
        assertThat(ownerOf("lab-0")).isEqualTo("first");
        for (int i = 2; i < 11; i++) {
            assertThat(ownerOf("lab-" + i)).isEqualTo("learner-" + i);
        }
        assertThat(ownerOf("lab-1")).isIn("learner-1", "late");
        assertThat(ownerOf("lab-11")).isNull();
    }

    @Test
    void aWriteThatFailsFailsOnlyItsOwnCaller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Claim> group = heldByFirst(release);
        Future<Boolean> first = claimWaiting(group, new Claim("lab-0", "first"), Thread.State.TIMED_WAITING);
        Future<Boolean> bad = claimWaiting(group, new Claim("bad-1", "learner-bad"));
        Future<Boolean> good = claimWaiting(group, new Claim("lab-2", "learner-2"));
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(good.get(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(SQLException.class)
                .hasMessageContaining("MISSING_TABLE");
        assertThat(ownerOf("lab-2")).isEqualTo("learner-2");
    }

    @Test
    void aWriteAloneIsCommittedAtOnce() throws Exception {
        GroupCommit<Claim> group =
                new GroupCommit<>(this::open, GroupCommitTest::claim, Comparator.comparing(Claim::id));
        assertThat(group.run(new Claim("lab-5", "ann"))).isTrue();
        assertThat(group.run(new Claim("lab-5", "bob"))).isFalse();
        assertThat(ownerOf("lab-5")).isEqualTo("ann");
        assertThat(connectionsOpened).hasValue(2);
    }
}
