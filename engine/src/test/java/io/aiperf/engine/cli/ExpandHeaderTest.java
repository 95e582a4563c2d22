package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The comment that heads an expanded YAML stays a comment, whatever the command line held. */
class ExpandHeaderTest {
    @Test
    void everyLineIsAComment() {
        final String header = ConfigCommand.ExpandHeader.of("aiperf config expand -m 'a\nb' --extra-inputs 'x\r\ny'", null);
        assertThat(header.lines()).hasSize(3).allMatch(l -> l.startsWith("# "));
        assertThat(header.lines().findFirst().orElseThrow()).contains("-m 'a b'");
    }
}
