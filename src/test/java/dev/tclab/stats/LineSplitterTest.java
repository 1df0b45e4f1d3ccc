package dev.tclab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineSplitterTest {

    private final List<String> lines = new ArrayList<>();
    private final LineSplitter splitter = new LineSplitter(8, lines::add);

    private void feed(String text) {
        splitter.accept(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldJoinLinesSplitAcrossChunksAndCutLongOnes() {
        feed("ab");
        feed("c\nd\n0123456789abcdef");
        feed("ghij\nlast");
        assertThat(lines).containsExactly("abc", "d", "01234567");
        splitter.reset();
        feed("\n");
        assertThat(lines).as("a partial line forgotten").containsExactly("abc", "d", "01234567", "");
    }
}
