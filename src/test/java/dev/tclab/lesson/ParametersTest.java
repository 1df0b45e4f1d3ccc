package dev.tclab.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParametersTest {

    private static final Map<String, Parameter> PARAMS = Map.of(
            "rate", new Parameter("rate", List.of("8", "10", "12"), "Mbit/s"),
            "delay", new Parameter("delay", List.of("20", "40", "60", "80"), "ms"));

    @Test
    void shouldGiveALearnerTheSameValuesEveryTime() {
        assertEquals(
                Parameters.forLearner("l-anna", "tbf-basics", PARAMS),
                Parameters.forLearner("l-anna", "tbf-basics", PARAMS));
    }

    @Test
    void shouldGiveDifferentLearnersDifferentValues() {
        Set<String> rates = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            rates.add(
                    Parameters.forLearner("learner-" + i, "tbf-basics", PARAMS).get("rate"));
        }
        assertEquals(Set.of("8", "10", "12"), rates, "a class of 30 gets every choice");
    }

    @Test
    void shouldSeedEachParameterAndLessonSeparately() {
        Set<String> pairs = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            Map<String, String> v = Parameters.forLearner("learner-" + i, "tbf-basics", PARAMS);
            pairs.add(v.get("rate") + "/" + v.get("delay"));
        }
        assertTrue(pairs.size() > 4, "rate and delay vary independently: " + pairs);
        Set<String> across = new HashSet<>();
        for (String lesson : List.of("a", "b", "c", "d", "e", "f", "g", "h")) {
            across.add(Parameters.forLearner("l-anna", lesson, PARAMS).get("rate"));
        }
        assertTrue(across.size() > 1, "one learner gets different values in different lessons: " + across);
    }

    @Test
    void shouldSubstituteDeclaredNamesAndLeaveOthers() {
        assertEquals(
                "rate 10mbit, delay 40 ms, {{other}}",
                Parameters.substitute(
                        "rate {{rate}}mbit, delay {{ delay }} ms, {{other}}", Map.of("rate", "10", "delay", "40")));
    }

    @Test
    void shouldFindUsesWithTheirLines() {
        assertEquals(
                List.of(new Parameters.Use("rate", 1), new Parameters.Use("x", 3), new Parameters.Use("rate", 3)),
                Parameters.uses("a {{rate}}\n\nb {{x}} {{rate}}"));
    }
}
