package dev.tclab.quiz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The order a learner sees a quiz's options in: {@code authoredAt.get(p)} is the index, in the lesson file, of the
 * option shown at position {@code p}. Pages and the API show options in this order and take choices as positions in
 * it; answers are kept as the author's indexes.
 */
public record OptionOrder(List<Integer> authoredAt) {

    public OptionOrder {
        authoredAt = List.copyOf(authoredAt);
        if (!new TreeSet<>(authoredAt)
                .equals(IntStream.range(0, authoredAt.size()).boxed().collect(Collectors.toCollection(TreeSet::new)))) {
            throw new IllegalArgumentException("not an order of " + authoredAt.size() + " options: " + authoredAt);
        }
    }

    /** The options as the author wrote them (validation, self-tests). */
    public static OptionOrder authored(Quiz quiz) {
        return new OptionOrder(IntStream.range(0, quiz.options().size()).boxed().toList());
    }

    /** A shuffle of {@code size} options, the same for the same seed. */
    public static OptionOrder shuffled(int size, long seed) {
        List<Integer> order = new ArrayList<>(IntStream.range(0, size).boxed().toList());
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            order.set(i, order.set(j, order.get(i)));
        }
        return new OptionOrder(order);
    }

    /** Whether this is an order of exactly the quiz's options (a lesson edit may have added or removed some). */
    public boolean fits(Quiz quiz) {
        return authoredAt.size() == quiz.options().size();
    }

    /** The quiz with its options in this order. */
    public Quiz apply(Quiz quiz) {
        return new Quiz(
                quiz.id(),
                quiz.question(),
                quiz.multiple(),
                authoredAt.stream().map(quiz.options()::get).toList());
    }

    /** The author's indexes of the options at these positions, ascending. */
    public List<Integer> toAuthored(Collection<Integer> positions) {
        return positions.stream().map(authoredAt::get).sorted().toList();
    }

    /** The positions of these author's indexes, ascending. */
    public List<Integer> toShown(Collection<Integer> authored) {
        return authored.stream().map(authoredAt::indexOf).sorted().toList();
    }

    /** As kept in the database: "2,0,1". */
    public String csv() {
        return authoredAt.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    public static OptionOrder ofCsv(String csv) {
        return new OptionOrder(
                Arrays.stream(csv.split(",")).map(Integer::valueOf).toList());
    }
}
