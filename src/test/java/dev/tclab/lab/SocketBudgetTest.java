package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tclab.http.SocketCloseCodes;
import dev.tclab.http.SocketRefusedException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 25, row 2: one learner's sockets of a kind are few (the newest wins) and the app's are capped. */
class SocketBudgetTest {

    private final List<String> evicted = new ArrayList<>();

    @Test
    void shouldCloseTheOldestOfALearnersSocketsOfAKindWhenANewerOneOpens() throws Exception {
        SocketBudget budget = new SocketBudget(100);
        for (int i = 1; i <= 6; i++) {
            String name = "s" + i;
            budget.admit("alice", "statistics", 4, () -> evicted.add(name));
        }
        assertEquals(List.of("s1", "s2"), evicted);
        assertEquals(4, budget.held());
        budget.admit("bob", "statistics", 4, () -> evicted.add("bob"));
        budget.admit("alice", "terminal", 4, () -> evicted.add("terminal"));
        assertEquals(List.of("s1", "s2"), evicted, "other learners and kinds count apart");
    }

    @Test
    void shouldRefuseASocketBeyondTheAppsCapWithTryAgainLaterUntilOneCloses() throws Exception {
        SocketBudget budget = new SocketBudget(3);
        SocketBudget.Ticket first = budget.admit("a", "terminal", 0, () -> {});
        budget.admit("b", "terminal", 0, () -> {});
        budget.admit("c", "statistics", 1, () -> evicted.add("c1"));
        SocketRefusedException refused =
                assertThrows(SocketRefusedException.class, () -> budget.admit("d", "terminal", 0, () -> {}));
        assertEquals(SocketCloseCodes.SERVER_BUSY, refused.closeCode());
        assertThat(refused.getMessage()).contains("(3)", "tries again");
        budget.admit("c", "statistics", 1, () -> evicted.add("c2"));
        assertEquals(List.of("c1"), evicted, "a learner's newer socket replaces theirs even at the cap");
        budget.release(first);
        budget.release(first);
        assertEquals(2, budget.held(), "a second release of one ticket changes nothing");
        budget.admit("d", "terminal", 0, () -> {});
    }
}
