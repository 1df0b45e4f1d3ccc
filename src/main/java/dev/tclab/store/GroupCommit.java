package dev.tclab.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes that arrive together, committed together. A class pressing Start at once sends 30 claims of pooled labs
 * within a few milliseconds; each in a transaction of its own queued for the database's commit, one after the other
 * (H2 writes its file on every commit under one lock, measured in docs/BENCHMARKS.md "A class at once": 29 of 30
 * hand-outs waited for it, up to 0.4 s each). Here the first caller commits its own write and every write waiting
 * beside it in one transaction; writes that arrive during that commit wait for it to end and go in the next one. Each
 * caller still returns only once its own write is committed, with its own statement's answer, so a returned write is
 * as durable as before.
 * <p>
 * The rows are written in the order of their keys, so two servers sharing one database lock them in the same order
 * (no deadlock between their groups). When a group fails, each of its writes is tried again alone, so one bad write
 * fails only its own caller.
 *
 * @param <T> one write's input
 */
final class GroupCommit<T> {

    /** Opens a connection to the database; the caller closes it. */
    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    /** One write on a connection, in the group's transaction: its statement's answer. */
    @FunctionalInterface
    interface Write<T> {
        boolean apply(Connection connection, T item) throws SQLException;
    }

    private static final class Pending<T> {
        final T item;
        boolean done;
        boolean answer;
        Exception failure;

        Pending(T item) {
            this.item = item;
        }
    }

    private final Connections connections;
    private final Write<T> write;
    private final Comparator<T> order;
    private final Object lock = new Object();
    private List<Pending<T>> waiting = new ArrayList<>();
    private boolean committing;

    GroupCommit(Connections connections, Write<T> write, Comparator<T> order) {
        this.connections = connections;
        this.write = write;
        this.order = order;
    }

    /** Writes {@code item} and returns its statement's answer once committed; throws what the database threw. */
    boolean run(T item) throws SQLException {
        Pending<T> mine = new Pending<>(item);
        List<Pending<T>> group;
        boolean interrupted = false;
        synchronized (lock) {
            waiting.add(mine);
            // Not interruptible: once waiting, the write may be in the group being committed; a commit is bounded
            // by the database's own timeouts.
            while (committing && !mine.done) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (!mine.done) {
                committing = true;
                group = waiting;
                waiting = new ArrayList<>();
            } else {
                group = null;
            }
        }
        if (group != null) {
            try {
                commit(group);
            } finally {
                synchronized (lock) {
                    committing = false;
                    lock.notifyAll();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (mine.failure instanceof SQLException e) {
            throw e;
        }
        if (mine.failure instanceof RuntimeException e) {
            throw e;
        }
        return mine.answer;
    }

    private void commit(List<Pending<T>> group) {
        List<Pending<T>> ordered = new ArrayList<>(group);
        ordered.sort(Comparator.comparing(p -> p.item, order));
        try {
            writeTogether(ordered);
        } catch (SQLException | RuntimeException e) {
            for (Pending<T> pending : ordered) {
                writeAlone(pending);
            }
        } finally {
            synchronized (lock) {
                group.forEach(p -> p.done = true);
            }
        }
    }

    private void writeTogether(List<Pending<T>> group) throws SQLException {
        try (Connection c = connections.open()) {
            if (group.size() == 1) {
                group.get(0).answer = write.apply(c, group.get(0).item);
                return;
            }
            c.setAutoCommit(false);
            try {
                boolean[] answers = new boolean[group.size()];
                for (int i = 0; i < group.size(); i++) {
                    answers[i] = write.apply(c, group.get(i).item);
                }
                c.commit();
                for (int i = 0; i < group.size(); i++) {
                    group.get(i).answer = answers[i];
                }
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private void writeAlone(Pending<T> pending) {
        try (Connection c = connections.open()) {
            pending.answer = write.apply(c, pending.item);
        } catch (SQLException | RuntimeException e) {
            pending.failure = e;
        }
    }
}
