package io.aiperf.engine.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class GridPlannerTest {
    private static List<Integer> run(final GridPlanner planner, final IntPredicate meets) {
        final List<Integer> probed = new ArrayList<>();
        for (OptionalInt next = planner.next(); next.isPresent(); next = planner.next()) {
            probed.add(next.getAsInt());
            planner.tell(next.getAsInt(), meets.test(next.getAsInt()));
        }
        return probed;
    }

    @Test
    void probesEvenlySpreadValuesInOrderAndEveryOneOfAShortRange() {
        assertThat(new GridPlanner(1, 64, 8).values()).containsExactly(1, 10, 19, 28, 37, 46, 55, 64);
        assertThat(new GridPlanner(2, 5, 8).values()).containsExactly(2, 3, 4, 5);
        final GridPlanner p = new GridPlanner(1, 64, 8);
        assertThat(run(p, c -> c <= 30)).containsExactly(1, 10, 19, 28, 37, 46, 55, 64);
        assertThat(p.capacity()).hasValue(28);
        assertThat(p.lowestMissed()).hasValue(37);
        assertThat(p.converged()).isTrue();
        assertThat(p.name()).isEqualTo("grid");
    }

    @Test
    void aValueThatMeetsAboveAMissIsNotTheCapacity() {
        final GridPlanner p = new GridPlanner(1, 64, 8);
        run(p, c -> c != 19); // 28 and up meet, but 19 did not
        assertThat(p.capacity()).hasValue(10);
        assertThat(p.lowestMissed()).hasValue(19);
        final GridPlanner none = new GridPlanner(4, 8, 2);
        run(none, c -> false);
        assertThat(none.capacity()).isEmpty();
    }
}
