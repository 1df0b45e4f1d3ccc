package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.StepProgress;
import dev.tclab.quiz.QuizResults;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The store write workload ({@link StoreWrites}) on the default database: embedded H2 in a file, as {@code bin/tclab}
 * runs it. Writes target/benchmarks/store-writes-h2-file.md.
 */
@QuarkusTest
@TestProfile(H2StoreWriteBenchmark.H2File.class)
class H2StoreWriteBenchmark {

    public static class H2File implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Path dir = Path.of("target", "bench-h2-" + UUID.randomUUID()).toAbsolutePath();
            return Map.of("tclab.data-dir", dir.toString(), "quarkus.datasource.jdbc.url", "${tclab-h2-file-url}");
        }
    }

    @Inject
    QuizResults quizzes;

    @Inject
    StepProgress progress;

    @Inject
    CheckRunLog log;

    @Test
    void writeLatencyOnH2File() throws Exception {
        StoreWrites.Figures figures = StoreWrites.run(quizzes, StoreWrites.appWriter(log, progress));
        StoreWrites.report("H2 file", figures);
        assertThat(figures.checkResult().n()).isEqualTo(StoreWrites.LEARNERS * StoreWrites.ROUNDS);
    }
}
