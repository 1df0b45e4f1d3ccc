package dev.tclab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.InMemoryStepProgress;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.quiz.InMemoryQuizResults;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The store write workload ({@link StoreWrites}) in memory, as the app kept state before the database: the
 * reference for the H2 and PostgreSQL figures. Writes target/benchmarks/store-writes-in-memory.md.
 */
class InMemoryStoreWriteBenchmark {

    @Test
    void writeLatencyInMemory() throws Exception {
        InMemoryStepProgress progress = new InMemoryStepProgress();
        Map<String, List<CheckResult>> runs = new ConcurrentHashMap<>();
        StoreWrites.Figures figures =
                StoreWrites.run(new InMemoryQuizResults(), (learner, lesson, position, result) -> {
                    runs.computeIfAbsent(learner, l -> new CopyOnWriteArrayList<>())
                            .add(result);
                    progress.record(learner, lesson, result.checkId(), result.passed());
                });
        StoreWrites.report("in memory", figures);
        assertThat(figures.quizAnswer().n()).isEqualTo(StoreWrites.LEARNERS * StoreWrites.ROUNDS);
    }
}
