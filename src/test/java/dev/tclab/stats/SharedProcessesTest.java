package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.ProcessStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A hub's shared processes above the runtime seam: one per key while watched, released on failure, forgotten when gone. */
class SharedProcessesTest {

    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor();
    private final SharedProcesses<String> processes = new SharedProcesses<>();
    private final AtomicInteger made = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final List<TestProcess> all = new CopyOnWriteArrayList<>();
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final StatsViewer ann = viewer("ann");
    private final StatsViewer bob = viewer("bob");

    /** What its start does: run, or fail as the engine or the node would. */
    private enum Start {
        RUNS,
        ENGINE_AWAY,
        NODE_GONE
    }

    private volatile Start start = Start.RUNS;

    private final class TestProcess extends SharedNodeProcess {
        private final List<Long> generations = new CopyOnWriteArrayList<>();

        TestProcess(Runnable onGone) {
            super(new ObjectMapper(), restarts, onGone);
        }

        @Override
        ProcessStream start(long generation) throws EngineUnavailableException, NodeNotFoundException {
            switch (start) {
                case ENGINE_AWAY -> throw new EngineUnavailableException("engine away", null);
                case NODE_GONE -> throw new NodeNotFoundException("lab1", "client");
                default -> {
                    generations.add(generation);
                    return new StubProcessStream(closed::incrementAndGet);
                }
            }
        }

        @Override
        String goneMessage() {
            return "the node is gone";
        }

        @Override
        String name() {
            return "test process";
        }

        @Override
        void stopPacing() {}
    }

    @AfterEach
    void shutDown() {
        restarts.shutdownNow();
    }

    private StatsViewer viewer(String name) {
        return new StatsViewer() {
            @Override
            public void send(String frame) {
                told.add(name + " " + frame);
            }

            @Override
            public void gone(String message) {
                told.add(name + " gone: " + message);
            }
        };
    }

    private SharedNodeProcess make(String key, Runnable onGone) {
        made.incrementAndGet();
        TestProcess process = new TestProcess(onGone);
        all.add(process);
        return process;
    }

    @Test
    void shouldShareOneProcessPerKeyAndStopItWithTheLastViewer() throws Exception {
        processes.watch("lab1/client", ann, this::make);
        processes.watch("lab1/client", bob, this::make);
        processes.watch("lab1/server", ann, this::make);
        assertThat(made).as("one process per key").hasValue(2);
        assertThat(processes.size()).isEqualTo(2);

        processes.unwatch("lab1/client", ann);
        assertThat(closed).as("still watched by bob").hasValue(0);
        processes.unwatch("lab1/client", bob);
        assertThat(closed).as("stopped with its last viewer").hasValue(1);
        assertThat(processes.size()).isEqualTo(1);

        processes.stopAll();
        assertThat(closed).hasValue(2);
    }

    @Test
    void shouldReleaseTheViewerAndForgetTheProcessWhenItCannotStart() throws Exception {
        start = Start.ENGINE_AWAY;
        assertThatThrownBy(() -> processes.watch("lab1/client", ann, this::make))
                .isInstanceOf(EngineUnavailableException.class);
        assertThat(processes.size())
                .as("nobody watches a process that never started")
                .isZero();

        start = Start.RUNS;
        processes.watch("lab1/client", ann, this::make);
        assertThat(made).as("the next watch makes a new one").hasValue(2);
    }

    @Test
    void shouldRestartAnEndedProcessAndTellTheViewersWhenItsNodeIsGone() throws Exception {
        processes.watch("lab1/client", ann, this::make);
        TestProcess process = all.get(0);
        process.processEnded(process.generations.get(0), "killed by the learner");
        awaitTrue(() -> process.generations.size() == 2);
        assertThat(process.generations).as("restarted as a new generation").containsExactly(1L, 2L);

        process.processEnded(1, "an old process's end is no news");
        start = Start.NODE_GONE;
        process.processEnded(2, "the container went away");
        awaitTrue(() -> processes.size() == 0);
        assertThat(told).containsExactly("ann gone: the node is gone");
        assertThat(process.watch(bob)).as("stopped for good").isFalse();
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
