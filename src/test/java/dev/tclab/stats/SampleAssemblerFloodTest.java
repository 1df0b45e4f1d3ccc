package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tclab.lab.RetainedHeap;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Issue 10, row 3: 200 MB written to the sampler's stdout cost the app 300 MB of heap and one 200 MB frame. */
class SampleAssemblerFloodTest {

    private static final String MARK = SamplerScript.MARK;
    /** What the flood may leave on the heap: the round cap (2 MiB) and a line, with room for the JVM's noise. */
    private static final long RETAINED_BOUND = 8L << 20;

    @Test
    void shouldDropARoundPastItsCapAndAskForARestartOnceWhileKeepingTheHeapBounded() {
        List<RawSample> rounds = new ArrayList<>();
        AtomicInteger overflows = new AtomicInteger();
        SampleAssembler assembler =
                new SampleAssembler(rounds::add, NodeSampler.MAX_ROUND_BYTES, overflows::incrementAndGet);
        long before = RetainedHeap.bytes();

        // A round begins; the learner then floods the qdisc section, as `cat /dev/zero | tr > /proc/PID/fd/1` would.
        assembler.accept((MARK + "sample 1\n" + MARK + "links\n" + MARK + "qdiscs\n").getBytes(StandardCharsets.UTF_8));
        byte[] chunk = new byte[32 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        for (int i = 31; i < chunk.length; i += 32) {
            chunk[i] = '\n';
        }
        for (long sent = 0; sent < 200_000_000L; sent += chunk.length) {
            assembler.accept(chunk);
        }
        assembler.accept((MARK + "end\n").getBytes(StandardCharsets.UTF_8));
        // The heap is the whole test JVM's, shared with the Quarkus apps of other test classes whose threads may still
        // allocate: what the assembler keeps stays across readings, their passing garbage does not, so the least of a
        // few readings (with the assembler held) is what it retains.
        long retained = Long.MAX_VALUE;
        for (int i = 0; i < 5 && retained >= RETAINED_BOUND; i++) {
            retained = Math.min(retained, RetainedHeap.bytes() - before);
        }
        Reference.reachabilityFence(assembler);

        assertEquals(1, overflows.get(), "one restart asked for");
        assertThat(rounds)
                .as("the flooded round is dropped, never sent to the page")
                .isEmpty();
        assertThat(retained)
                .as("retained heap after 200 MB, in bytes (bound %d MiB)", RetainedHeap.mib(RETAINED_BOUND))
                .isLessThan(RETAINED_BOUND);
    }

    @Test
    void shouldCountWhatArrivesBetweenRoundsAndKeepNoneOfIt() {
        List<RawSample> rounds = new ArrayList<>();
        AtomicInteger overflows = new AtomicInteger();
        SampleAssembler assembler =
                new SampleAssembler(rounds::add, NodeSampler.MAX_ROUND_BYTES, overflows::incrementAndGet);
        String round =
                MARK + "sample 1\n" + MARK + "links\neth1 1 1 0 2 2 0\n" + MARK + "qdiscs\n[]\n" + MARK + "end\n";
        assembler.accept((round + "stray line after the round\n" + round.replace("sample 1", "sample 2"))
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(2, rounds.size());
        assertEquals("[]\n", rounds.get(1).qdiscsJson(), "a stray line between rounds joins no section");

        byte[] junk = ("y".repeat(63) + "\n").getBytes(StandardCharsets.UTF_8);
        for (long sent = 0; sent <= NodeSampler.MAX_ROUND_BYTES; sent += junk.length) {
            assembler.accept(junk);
        }
        assertEquals(1, overflows.get(), "output between rounds counts against the next round's cap");
    }
}
