package io.aiperf.engine.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.ci.ExitCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cell's status carries its exit code and the word the outcome files spell it with. */
class CellStatusTest {
    @Test
    void eachStatusCarriesItsExitCodeAndWireName() {
        assertThat(CellStatus.COMPLETED.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(CellStatus.FAILED.exitCode()).isEqualTo(ExitCode.FAILED);
        assertThat(CellStatus.BAD_INPUT.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(CellStatus.CANCELLED.exitCode()).isEqualTo(ExitCode.CANCELLED);
        assertThat(CellStatus.TERMINATED.exitCode()).isEqualTo(ExitCode.TERMINATED);
        assertThat(List.of(CellStatus.values()).stream().map(CellStatus::wireName))
                .containsExactly("completed", "failed", "failed", "cancelled", "cancelled");
    }

    @Test
    void theFilesPairOfStatusAndExitCodeReadsBackAsTheStatus() {
        for (final CellStatus s : CellStatus.values()) {
            assertThat(CellStatus.of(s.wireName(), s.exitCode())).isEqualTo(s);
        }
        // an older merge wrote "failed" with the cancelled code: still a failure
        assertThat(CellStatus.of("failed", 130)).isEqualTo(CellStatus.FAILED);
        assertThatThrownBy(() -> CellStatus.of("ok", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("status").hasMessageContaining("\"ok\"");
    }

    @Test
    void aCellOfPartsIsItsWorstPart() {
        assertThat(CellStatus.worst(List.of())).isEqualTo(CellStatus.COMPLETED);
        assertThat(CellStatus.worst(List.of(CellStatus.COMPLETED, CellStatus.CANCELLED)))
                .isEqualTo(CellStatus.CANCELLED);
        assertThat(CellStatus.worst(List.of(CellStatus.CANCELLED, CellStatus.FAILED, CellStatus.COMPLETED)))
                .isEqualTo(CellStatus.FAILED);
        assertThat(CellStatus.worst(List.of(CellStatus.CANCELLED, CellStatus.TERMINATED)))
                .isEqualTo(CellStatus.TERMINATED);
        assertThat(CellStatus.worst(List.of(CellStatus.FAILED, CellStatus.BAD_INPUT))).isEqualTo(CellStatus.BAD_INPUT);
    }

    @Test
    void anOutcomesExitCodeIsItsStatuses() {
        final CellOutcome o = new CellOutcome(CellStatus.BAD_INPUT, ".", List.of(), List.of(), "no conversations", 0,
                0, 0, CellIdentity.single(), null);
        assertThat(o.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(o.completed()).isFalse();
    }
}
