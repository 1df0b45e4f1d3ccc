package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.CheckRunLog;
import dev.tclab.grading.StepProgress;
import dev.tclab.quiz.QuizResults;
import dev.tclab.store.PostgresProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * The store write workload ({@link StoreWrites}) on the local PostgreSQL of {@code bin/ensure-postgres}, over TCP.
 * Writes target/benchmarks/store-writes-postgresql.md.
 */
@QuarkusTest
@TestProfile(PostgresProfile.class)
class PostgresStoreWriteBenchmark {

    @Inject
    QuizResults quizzes;

    @Inject
    StepProgress progress;

    @Inject
    CheckRunLog log;

    @Test
    void writeLatencyOnPostgresql() throws Exception {
        StoreWrites.Figures figures = StoreWrites.run(quizzes, StoreWrites.appWriter(log, progress));
        StoreWrites.report("PostgreSQL", figures);
        assertThat(figures.checkResult().n()).isEqualTo(StoreWrites.LEARNERS * StoreWrites.ROUNDS);
    }
}
