package dev.tclab.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventExportCsvTest {

    @Test
    void cellsAreQuotedAndFormulasDefused() {
        String csv = new EventExport(null, null, null)
                .csv(List.of(
                        new EventExport.Line(
                                "=HYPERLINK(\"x\")",
                                "l1",
                                "tbf-basics",
                                "step",
                                "shape",
                                true,
                                Instant.parse("2026-12-01T10:00:00Z"),
                                2),
                        new EventExport.Line("Bea, \"B\"", "l2", "tbf-basics", "quiz", "q1", false, null, 0)));
        assertThat(csv.split("\r\n"))
                .containsExactly(
                        "name,learner_id,lesson,kind,item,passed,passed_at,attempts",
                        "\"'=HYPERLINK(\"\"x\"\")\",l1,tbf-basics,step,shape,true,2026-12-01T10:00:00Z,2",
                        "\"Bea, \"\"B\"\"\",l2,tbf-basics,quiz,q1,false,,0");
    }
}
