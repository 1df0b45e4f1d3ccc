package dev.tclab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class OptionOrderTest {

    private static final Quiz QUIZ = new Quiz(
            "unit",
            "Which?",
            true,
            List.of(
                    new Quiz.Option("a", true, "a is right"), new Quiz.Option("b", false, "b is not"),
                    new Quiz.Option("c", true, "c is right"), new Quiz.Option("d", false, "d is not")));

    @Test
    void shouldShuffleTheSameWayForTheSameSeedAndEveryWayOverManySeeds() {
        assertThat(OptionOrder.shuffled(4, 42)).isEqualTo(OptionOrder.shuffled(4, 42));
        Set<List<Integer>> seen = new HashSet<>();
        int[] rightFirst = new int[4];
        for (long seed = 0; seed < 2400; seed++) {
            OptionOrder order = OptionOrder.shuffled(4, seed * 0x9E3779B97F4A7C15L);
            seen.add(order.authoredAt());
            rightFirst[order.authoredAt().get(0)]++;
        }
        assertThat(seen).as("all 24 orders of 4 options").hasSize(24);
        // Each option comes first in about a quarter of the orders (600 expected).
        assertThat(Arrays.stream(rightFirst).boxed().toList())
                .allSatisfy(n -> assertThat(n).isBetween(480, 720));
    }

    @Test
    void shouldShowTheOptionsInItsOrderAndMapPositionsBackToTheAuthorsIndexes() {
        OptionOrder order = new OptionOrder(List.of(2, 0, 3, 1));
        Quiz shown = order.apply(QUIZ);
        assertThat(shown.options()).extracting(Quiz.Option::text).containsExactly("c", "a", "d", "b");
        assertThat(shown.correctChoices()).containsExactly(0, 1);
        assertThat(order.toAuthored(List.of(1, 0))).containsExactly(0, 2);
        assertThat(order.toShown(List.of(2, 0))).containsExactly(0, 1);
        assertThat(order.toShown(order.toAuthored(List.of(3)))).containsExactly(3);
        assertThat(OptionOrder.ofCsv(order.csv())).isEqualTo(order);
        assertThat(OptionOrder.authored(QUIZ).apply(QUIZ)).isEqualTo(QUIZ);
    }

    @Test
    void shouldFitOnlyAQuizWithAsManyOptions() {
        assertThat(new OptionOrder(List.of(1, 0, 3, 2)).fits(QUIZ)).isTrue();
        assertThat(new OptionOrder(List.of(1, 0, 2)).fits(QUIZ)).isFalse();
    }

    @Test
    void shouldRefuseWhatIsNotAnOrder() {
        assertThatThrownBy(() -> new OptionOrder(List.of(0, 0, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OptionOrder(List.of(1, 2))).isInstanceOf(IllegalArgumentException.class);
        assertThat(new OptionOrder(IntStream.range(0, 5).boxed().toList()).authoredAt())
                .hasSize(5);
    }
}
