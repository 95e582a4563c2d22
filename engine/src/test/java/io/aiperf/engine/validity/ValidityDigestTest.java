package io.aiperf.engine.validity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run of several cells says each validity problem once, counted over the cells. */
class ValidityDigestTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static CellSummary summary(final String... checks) throws Exception {
        return SummaryCodec.read(JSON.readTree("{\"validity\": {\"checks\": [" + String.join(",", checks) + "]}}"));
    }

    private static String check(final String name, final String result, final String message) {
        return "{\"name\": \"" + name + "\", \"result\": \"" + result + "\", \"message\": \"" + message
                + "\", \"fix\": \"fix " + name + "\"}";
    }

    @Test
    void nineCellsUnderAHundredRequestsGiveOneSampleSizeLine() throws Exception {
        final List<ValidityDigest.Cell> cells = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            cells.add(new ValidityDigest.Cell("c" + i, summary(check("sample_size", "warn", i * 10
                    + " valid requests measure percentiles up to p90"), check("error_share", "ok", "0.0%"),
                    check("client_wakeup", i % 3 == 0 ? "warn" : "ok", "late timers"))));
        }
        final List<String> lines = ValidityDigest.lines(cells);
        assertThat(lines).containsExactly(
                "Validity warn (sample_size) in 9 of 9 cells: 10 valid requests measure percentiles up to p90 "
                        + "(cell c1); fix sample_size",
                "Validity warn (client_wakeup) in 3 of 9 cells: late timers (cell c3); fix client_wakeup");
    }

    @Test
    void anInvalidCellComesFirstAndIsTheOneQuoted() throws Exception {
        final List<String> lines = ValidityDigest.lines(List.of(
                new ValidityDigest.Cell("a", summary(check("sample_size", "warn", "few"),
                        check("error_share", "warn", "6% failed"))),
                new ValidityDigest.Cell("b", summary(check("error_share", "invalid", "40% failed")))));
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("Validity invalid (error_share) in 2 of 2 cells: 40% failed (cell b)");
        assertThat(lines.get(1)).startsWith("Validity warn (sample_size) in 1 of 2 cells");
    }

    @Test
    void cellsThatAreAllOkSayNothing() throws Exception {
        assertThat(ValidityDigest.lines(List.of(new ValidityDigest.Cell("a", summary(check("sample_size", "ok",
                "fine")))))).isEmpty();
    }
}
