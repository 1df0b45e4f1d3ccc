package dev.tclab.lab.docker;

import dev.tclab.lab.BoundedCommand;
import dev.tclab.lab.ExecResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Reads a sidecar agent's answers from its output as it arrives, in chunks of any size: a header line
 * ({@code @@tclab-agent <id> <exit code> <cut> <stdout bytes> <stderr bytes>}), then the command's stdout and
 * stderr of those lengths. Anything else means the output is out of step: {@code outOfStep} is told once, and
 * nothing more is read.
 */
final class AgentAnswers {

    private static final String HEADER = "@@tclab-agent";
    /** Longest header: the marker, a UUID and four numbers. */
    static final int MAX_HEADER = 160;

    private final BiConsumer<String, ExecResult> answered;
    private final Consumer<String> outOfStep;
    private byte[] buffer = new byte[8192];
    private int length;
    private boolean broken;

    AgentAnswers(BiConsumer<String, ExecResult> answered, Consumer<String> outOfStep) {
        this.answered = answered;
        this.outOfStep = outOfStep;
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
        int used = 0;
        while (true) {
            int newline = indexOfNewline(used, Math.min(length, used + MAX_HEADER));
            if (newline < 0) {
                if (length - used >= MAX_HEADER) {
                    broke("it printed something that is not an answer");
                    return;
                }
                break;
            }
            Header header = Header.parse(new String(buffer, used, newline - used, StandardCharsets.US_ASCII));
            if (header == null) {
                broke("it printed something that is not an answer");
                return;
            }
            int body = newline + 1;
            if (length - body < header.outBytes() + header.errBytes()) {
                break;
            }
            String stdout = new String(buffer, body, header.outBytes(), StandardCharsets.UTF_8);
            String stderr = new String(buffer, body + header.outBytes(), header.errBytes(), StandardCharsets.UTF_8);
            boolean timedOut = header.code() == BoundedCommand.TIMEOUT_EXIT;
            answered.accept(header.id(), new ExecResult(timedOut ? -1 : header.code(), stdout, stderr, timedOut,
                    header.cut()));
            used = body + header.outBytes() + header.errBytes();
        }
        System.arraycopy(buffer, used, buffer, 0, length - used);
        length -= used;
        if (buffer.length > 2 * BoundedCommand.MAX_CAPTURE_BYTES + 2 * MAX_HEADER && length < buffer.length / 4) {
            buffer = Arrays.copyOf(buffer, Math.max(8192, length)); // a flood's answer is not kept around
        }
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
                Header header = new Header(fields[1], Integer.parseInt(fields[2]), fields[3].equals("1"),
                        Integer.parseInt(fields[4]), Integer.parseInt(fields[5]));
                boolean fits = header.outBytes() >= 0 && header.errBytes() >= 0
                        && header.outBytes() <= BoundedCommand.MAX_CAPTURE_BYTES
                        && header.errBytes() <= BoundedCommand.MAX_CAPTURE_BYTES;
                return fits ? header : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
