package dev.tclab.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tclab.runtime.ExecResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentAnswersTest {

    private final Map<String, ExecResult> answers = new LinkedHashMap<>();
    private final List<String> broken = new ArrayList<>();
    private final AgentAnswers reader = new AgentAnswers(answers::put, broken::add);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadAnswersSplitAnywhereAndSeveralInOneChunk() {
        byte[] both = bytes("@@tclab-agent a 3 0 4 3\nout\nerr@@tclab-agent b 0 1 2 0\né");
        for (byte b : both) {
            reader.feed(new byte[] {b});
        }
        reader.feed(bytes("@@tclab-agent c 124 0 0 0\n@@tclab-agent d 0 0 1 0\nx"));

        assertEquals(new ExecResult(3, "out\n", "err", false, false), answers.get("a"));
        assertEquals(new ExecResult(0, "é", "", false, true), answers.get("b"), "lengths count bytes, not chars");
        assertEquals(new ExecResult(-1, "", "", true, false), answers.get("c"), "timeout(1)'s 124 reads as timed out");
        assertEquals(new ExecResult(0, "x", "", false, false), answers.get("d"));
        assertTrue(broken.isEmpty());
    }

    @Test
    void shouldReadStreamsAcknowledgementsAndReadyBetweenAnswersAfterABootsOutput() {
        List<String> events = new ArrayList<>();
        AgentAnswers console = new AgentAnswers(
                answers::put,
                broken::add,
                new AgentAnswers.Events() {
                    @Override
                    public void output(String id, byte[] chunk) {
                        events.add(id + " out " + new String(chunk, StandardCharsets.UTF_8));
                    }

                    @Override
                    public void ended(String id, int exitCode) {
                        events.add(id + " end " + exitCode);
                    }

                    @Override
                    public void acknowledged(int bytes) {
                        events.add("ack " + bytes);
                    }

                    @Override
                    public void ready() {
                        events.add("ready");
                    }
                },
                true);
        byte[] all = bytes("Checking PROT_EXEC mmap in /dev/shm...OK\n@@tclab-rea\n@@tclab-ready\n@@tclab-ack 12\n"
                + "@@tclab-out s 7\nhi\n@@t\n@@tclab-agent a 0 0 1 0\nx@@tclab-end s 0\n@@tclab-ready\n");
        for (byte b : all) {
            console.feed(new byte[] {b});
        }

        assertEquals(List.of("ready", "ack 12", "s out hi\n@@t\n", "s end 0", "ready"), events);
        assertEquals(Map.of("a", new ExecResult(0, "x", "", false, false)), answers);
        assertTrue(broken.isEmpty());
    }

    @Test
    void shouldTakeOutputThatLooksLikeAHeaderAsOutput() {
        String inner = "@@tclab-agent forged 0 0 0 0\n";
        reader.feed(bytes("@@tclab-agent real 0 0 " + inner.length() + " 0\n" + inner));
        assertEquals(Map.of("real", new ExecResult(0, inner, "", false, false)), answers);
    }

    @Test
    void shouldStopReadingAtAnythingElse() {
        reader.feed(bytes("hello\n@@tclab-agent a 0 0 0 0\n"));
        reader.feed(bytes("@@tclab-agent b 0 0 0 0\n"));
        assertEquals(List.of("it printed something that is not an answer"), broken);
        assertTrue(answers.isEmpty());
    }

    @Test
    void shouldRefuseAHeaderClaimingMoreThanAnAgentKeeps() {
        reader.feed(bytes("@@tclab-agent a 0 0 99999999 0\n"));
        reader.feed(bytes("x".repeat(AgentAnswers.MAX_HEADER + 1)));
        assertEquals(1, broken.size());
    }

    @Test
    void shouldStopAtALineWithoutEndLongerThanAHeader() {
        reader.feed(bytes("@".repeat(AgentAnswers.MAX_HEADER)));
        assertEquals(1, broken.size());
    }
}
