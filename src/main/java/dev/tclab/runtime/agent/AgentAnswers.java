package dev.tclab.runtime.agent;

import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Reads a sidecar agent's answers from its output as it arrives, in chunks of any size: a header line
 * ({@code @@tclab-agent <id> <exit code> <cut> <stdout bytes> <stderr bytes>}), then the command's stdout and
 * stderr of those lengths; a streamed process's output ({@code @@tclab-out <id> <bytes>} and the bytes) and end
 * ({@code @@tclab-end <id> <exit code>}); {@code @@tclab-ready} and {@code @@tclab-ack <bytes>} (input read). Anything
 * else means the output is out of step: {@code outOfStep} is told once, and nothing more is read. Output before the
 * first {@code @@tclab-ready} line is skipped when the agent's output starts with other things (a UML kernel's boot).
 */
final class AgentAnswers {

    private static final String HEADER = "@@tclab-agent";
    private static final byte[] READY = "@@tclab-ready\n".getBytes(StandardCharsets.US_ASCII);
    /** Longest header: the marker, a UUID and four numbers. */
    static final int MAX_HEADER = 160;
    /** Most output of a streamed process in one frame: the agent reads 64 KiB at a time. */
    static final int MAX_STREAM_CHUNK = 65536;

    /** What the agent says besides command answers. */
    interface Events {
        void output(String id, byte[] chunk);

        void ended(String id, int exitCode);

        void acknowledged(int bytes);

        void ready();
    }

    private static final Events NO_EVENTS = new Events() {
        @Override
        public void output(String id, byte[] chunk) {}

        @Override
        public void ended(String id, int exitCode) {}

        @Override
        public void acknowledged(int bytes) {}

        @Override
        public void ready() {}
    };

    private final BiConsumer<String, ExecResult> answered;
    private final Consumer<String> outOfStep;
    private final Events events;
    private boolean skipping;
    private byte[] buffer = new byte[8192];
    private int length;
    private boolean broken;

    AgentAnswers(BiConsumer<String, ExecResult> answered, Consumer<String> outOfStep) {
        this(answered, outOfStep, NO_EVENTS, false);
    }

    /** @param skipToReady whether the output starts with other things, up to the agent's first ready line */
    AgentAnswers(
            BiConsumer<String, ExecResult> answered, Consumer<String> outOfStep, Events events, boolean skipToReady) {
        this.answered = answered;
        this.outOfStep = outOfStep;
        this.events = events;
        this.skipping = skipToReady;
    }

    synchronized void feed(byte[] chunk) {
        if (broken) {
            return;
        }
        if (length + chunk.length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(length + chunk.length, buffer.length * 2));
        }
        System.arraycopy(chunk, 0, buffer, length, chunk.length);
        length += chunk.length;
        int used = skipping ? skipToReady() : 0;
        while (!skipping) {
            int newline = indexOfNewline(used, Math.min(length, used + MAX_HEADER));
            if (newline < 0) {
                if (length - used >= MAX_HEADER) {
                    broke("it printed something that is not an answer");
                    return;
                }
                break;
            }
            String line = new String(buffer, used, newline - used, StandardCharsets.US_ASCII);
            int body = newline + 1;
            if (!line.startsWith(HEADER + " ")) {
                int consumed = event(line, body);
                if (consumed < 0) {
                    broke("it printed something that is not an answer");
                    return;
                }
                if (consumed == 0) {
                    break;
                }
                used = consumed;
                continue;
            }
            Header header = Header.parse(line);
            if (header == null) {
                broke("it printed something that is not an answer");
                return;
            }
            if (length - body < header.outBytes() + header.errBytes()) {
                break;
            }
            String stdout = new String(buffer, body, header.outBytes(), StandardCharsets.UTF_8);
            String stderr = new String(buffer, body + header.outBytes(), header.errBytes(), StandardCharsets.UTF_8);
            boolean timedOut = header.code() == BoundedCommand.TIMEOUT_EXIT;
            answered.accept(
                    header.id(), new ExecResult(timedOut ? -1 : header.code(), stdout, stderr, timedOut, header.cut()));
            used = body + header.outBytes() + header.errBytes();
        }
        System.arraycopy(buffer, used, buffer, 0, length - used);
        length -= used;
        if (buffer.length > 2 * BoundedCommand.MAX_CAPTURE_BYTES + 2 * MAX_HEADER && length < buffer.length / 4) {
            buffer = Arrays.copyOf(buffer, Math.max(8192, length)); // a flood's answer is not kept around
        }
    }

    /**
     * Handles a line other than a command's answer starting at {@code body}'s line: where the next frame starts, 0 when
     * its output has not all arrived yet, or -1 when the line is no frame at all.
     */
    private int event(String line, int body) {
        String[] fields = line.split(" ");
        try {
            switch (fields[0]) {
                case "@@tclab-out" -> {
                    int bytes = Integer.parseInt(fields[2]);
                    if (fields.length != 3 || bytes < 0 || bytes > MAX_STREAM_CHUNK) {
                        return -1;
                    }
                    if (length - body < bytes) {
                        return 0;
                    }
                    events.output(fields[1], Arrays.copyOfRange(buffer, body, body + bytes));
                    return body + bytes;
                }
                case "@@tclab-end" -> {
                    if (fields.length != 3) {
                        return -1;
                    }
                    events.ended(fields[1], Integer.parseInt(fields[2]));
                    return body;
                }
                case "@@tclab-ack" -> {
                    if (fields.length != 2) {
                        return -1;
                    }
                    events.acknowledged(Integer.parseInt(fields[1]));
                    return body;
                }
                case "@@tclab-ready" -> {
                    if (fields.length != 1) {
                        return -1;
                    }
                    events.ready();
                    return body;
                }
                default -> {
                    return -1;
                }
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return -1;
        }
    }

    /** Drops what comes before the first ready line; keeps a tail that may be its beginning. */
    private int skipToReady() {
        for (int i = 0; i + READY.length <= length; i++) {
            if (Arrays.equals(buffer, i, i + READY.length, READY, 0, READY.length)) {
                skipping = false;
                events.ready();
                return i + READY.length;
            }
        }
        return Math.max(0, length - READY.length + 1);
    }

    private void broke(String why) {
        broken = true;
        buffer = new byte[0];
        length = 0;
        outOfStep.accept(why);
    }

    private int indexOfNewline(int from, int to) {
        for (int i = from; i < to; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private record Header(String id, int code, boolean cut, int outBytes, int errBytes) {

        /** The header, or null when the line is none (or claims more output than an agent keeps). */
        static Header parse(String line) {
            String[] fields = line.split(" ");
            if (fields.length != 6 || !fields[0].equals(HEADER) || !fields[3].matches("[01]")) {
                return null;
            }
            try {
                Header header = new Header(
                        fields[1],
                        Integer.parseInt(fields[2]),
                        fields[3].equals("1"),
                        Integer.parseInt(fields[4]),
                        Integer.parseInt(fields[5]));
                boolean fits = header.outBytes() >= 0
                        && header.errBytes() >= 0
                        && header.outBytes() <= BoundedCommand.MAX_CAPTURE_BYTES
                        && header.errBytes() <= BoundedCommand.MAX_CAPTURE_BYTES;
                return fits ? header : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
