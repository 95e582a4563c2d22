package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationTurnTest {
    @Test
    void imagesAreCountedAmongTheTurnsMedia() {
        final Conversation.Media image = new Conversation.Media(Conversation.Media.Kind.IMAGE, "data:image/png;base64,AA");
        final Conversation.Media audio = new Conversation.Media(Conversation.Media.Kind.AUDIO, "wav,AA");
        assertThat(new Conversation.Turn("p", 1, null, 0).imageCount()).isZero();
        assertThat(new Conversation.Turn("p", 1, null, 0, List.of(), List.of(audio)).imageCount()).isZero();
        assertThat(new Conversation.Turn("p", 1, null, 0, List.of(), List.of(image, audio, image)).imageCount())
                .isEqualTo(2);
    }
}
