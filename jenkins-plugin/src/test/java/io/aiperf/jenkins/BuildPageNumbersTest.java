package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The build page shows measured values rounded, and changes signed, never a double's every digit. */
class BuildPageNumbersTest {
    private final AiperfBuildAction page = new AiperfBuildAction();

    @Test
    void valuesHaveAtMostThreeDecimalsAndChangesOneWithTheirSign() {
        assertEquals("22.013", page.number(22.012787519999996));
        assertEquals("8", page.number(8.0));
        assertEquals("1200", page.number(1200L));
        assertEquals("", page.number(null));
        assertEquals("n/a", page.number("n/a"));
        assertEquals("-19.4", page.percent(-19.425258900512848));
        assertEquals("+3.0", page.percent(3));
        assertEquals("", page.percent(null));
    }
}
