package dev.tclab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Simulated learners doing one thing at the same moment, as a class does when the host says "now press Check". */
final class AtOnce {

    interface LearnerStep {
        void run(Learner learner) throws Exception;
    }

    private AtOnce() {}

    /** Runs the step for every learner not failed yet, all released at the same moment; a throw fails that learner. */
    static void all(ExecutorService threads, List<Learner> learners, LearnerStep step) throws InterruptedException {
        List<Learner> going = learners.stream().filter(l -> !l.failed()).toList();
        CountDownLatch ready = new CountDownLatch(going.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (Learner learner : going) {
            done.add(threads.submit(() -> {
                ready.countDown();
                try {
                    go.await();
                    step.run(learner);
                } catch (Exception | AssertionError e) {
                    learner.fail(e.toString());
                }
                return null;
            }));
        }
        ready.await();
        go.countDown();
        for (Future<?> future : done) {
            try {
                future.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }
}
