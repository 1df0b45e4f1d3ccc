package dev.tclab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.learner.SecretStore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class OptionShuffleTest {

    private static final Quiz QUIZ = new Quiz(
            "burst-unit",
            "What is 32kb?",
            false,
            List.of(
                    new Quiz.Option("32 kilobytes", true, "tc's b is bytes"),
                            new Quiz.Option("32 kilobits", false, "no"),
                    new Quiz.Option("32 packets", false, "no"), new Quiz.Option("32 ms", false, "no")));

    /** The secret store the app keeps in its database, as a map. */
    private static final class MapSecrets implements SecretStore {
        final Map<String, String> kept = new HashMap<>();

        @Override
        public String getOrCreate(String name, Supplier<String> fresh) {
            return kept.computeIfAbsent(name, n -> fresh.get());
        }
    }

    private final MapSecrets secrets = new MapSecrets();
    private final InMemoryQuizOrders kept = new InMemoryQuizOrders();
    private final OptionShuffle shuffle = new OptionShuffle(kept, secrets);

    @Test
    void shouldGiveALearnerTheSameOrderEveryTimeAndAnotherAppWithTheSameKeyToo() {
        OptionOrder first = shuffle.forLearner("l1", "tbf-basics").apply(QUIZ);
        assertThat(shuffle.forLearner("l1", "tbf-basics").apply(QUIZ)).isEqualTo(first);
        assertThat(new OptionShuffle(new InMemoryQuizOrders(), secrets)
                        .forLearner("l1", "tbf-basics")
                        .apply(QUIZ))
                .as("a restarted app (same kept key)")
                .isEqualTo(first);
        assertThat(secrets.kept).containsKey(OptionShuffle.KEY_NAME);
    }

    @Test
    void shouldSpreadTheRightAnswerOverEveryPositionAcrossLearners() {
        int[] rightAt = new int[4];
        for (int i = 0; i < 400; i++) {
            Quiz shown =
                    shuffle.forLearner("learner-" + i, "tbf-basics").apply(QUIZ).apply(QUIZ);
            rightAt[shown.correctChoices().get(0)]++;
        }
        assertThat(Arrays.stream(rightAt).boxed().toList())
                .allSatisfy(n -> assertThat(n).isBetween(60, 140));
    }

    @Test
    void shouldKeepTheOrderALearnerAnsweredInUntilTheQuizNoLongerFitsIt() {
        OptionOrder answeredIn = new OptionOrder(List.of(3, 2, 1, 0));
        shuffle.answeredIn("l2", "tbf-basics", QUIZ.id(), answeredIn);
        assertThat(shuffle.forLearner("l2", "tbf-basics").apply(QUIZ)).isEqualTo(answeredIn);
        assertThat(kept.orders("l2", "tbf-basics")).containsEntry(QUIZ.id(), answeredIn);

        Quiz edited = new Quiz(QUIZ.id(), QUIZ.question(), false, QUIZ.options().subList(0, 3));
        Function<Quiz, OptionOrder> orders = shuffle.forLearner("l2", "tbf-basics");
        assertThat(orders.apply(edited).authoredAt())
                .as("a fresh order of the 3 options left")
                .hasSize(3);
    }
}
