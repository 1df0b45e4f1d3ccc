package dev.tclab.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.ProcessStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What a learner's terminal says when the shell's input queue is full. */
class TerminalSessionTest {

    private static final byte[] KEY = {'a'};

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-05T06:00:00Z"));
    /** What the shell's stream answers to each write, in turn: true when it took the bytes. */
    private final Deque<Boolean> taken = new ArrayDeque<>();

    private final ByteArrayOutputStream screen = new ByteArrayOutputStream();

    @Test
    void shouldSayInputIsDroppedOnceThoughAWriteBetweenTwoRefusedOnesWasTaken() throws Exception {
        TerminalSession session = attachedSession();

        // A paste into a command that does not read: the engine's writer drains a little between refusals.
        answers(false, true, false, false, true, false);
        for (int i = 0; i < 6; i++) {
            session.write(KEY);
        }

        assertThat(notices()).as("told once for one paste").isEqualTo(1);
    }

    @Test
    void shouldSayItAgainWhenInputIsStillDroppedLater() throws Exception {
        TerminalSession session = attachedSession();
        answers(false, false, false);

        session.write(KEY);
        now.set(now.get().plus(TerminalSession.INPUT_DROPPED_NOTICE_EVERY).minusMillis(1));
        session.write(KEY);
        assertThat(notices()).as("not again within the interval").isEqualTo(1);
        now.set(now.get().plusMillis(1));
        session.write(KEY);

        assertThat(notices()).as("again once the interval has passed").isEqualTo(2);
    }

    @Test
    void shouldSayNothingWhileTheShellTakesItsInput() throws Exception {
        TerminalSession session = attachedSession();
        answers(true, true, true);

        for (int i = 0; i < 3; i++) {
            assertThat(session.write(KEY)).isTrue();
        }

        assertThat(notices()).isZero();
    }

    private void answers(Boolean... writes) {
        taken.addAll(List.of(writes));
    }

    private int notices() {
        String shown = screen.toString(StandardCharsets.UTF_8);
        return shown.split("\\[tclab: input dropped", -1).length - 1;
    }

    private TerminalSession attachedSession() throws Exception {
        TerminalSession session = new TerminalSession(
                new SessionKey("lab", "client", "learner"), 4096, ended -> {}, (InstantSource) now::get);
        session.startIfNeeded(runtime(), TerminalSessions.SHELL);
        session.attach(new ScreenSink());
        return session;
    }

    /** A runtime whose only use here is a shell whose stream answers writes from {@link #taken}. */
    private LabRuntime runtime() {
        ProcessStream shell = new ProcessStream() {
            @Override
            public boolean write(byte[] input) {
                return taken.removeFirst();
            }

            @Override
            public void resize(int columns, int rows) {}

            @Override
            public void close() {}
        };
        return (LabRuntime) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {LabRuntime.class}, (proxy, method, args) -> {
                    if (method.getName().equals("shell")) {
                        return shell;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private final class ScreenSink implements TerminalSink {
        @Override
        public void output(byte[] chunk) {
            screen.writeBytes(chunk);
        }

        @Override
        public void ended(String reason) {}

        @Override
        public void takenOver() {}

        @Override
        public void engineLost(String message) {}
    }
}
