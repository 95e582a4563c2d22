package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's synthetic image and audio inputs, sent to the real mock as chat content parts (src-docs/datasets.md). */
class SyntheticMediaEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result run(final MockServer mock, final Path dir, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--isl", "8",
                "--osl", "2", "--request-count", "3", "--random-seed", "11", "--tokenizer", "builtin",
                "--export-level", "raw", "--artifact-dir", dir.toString()));
        args.addAll(List.of(extra));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    @Test
    void imagesAndAudioGoOutAsContentPartsOfTheSizeAsked() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("media");
            final Runs.Result r = run(mock, dir, "--image-width-mean", "32", "--image-height-mean", "24",
                    "--batch-size-image", "2", "--image-format", "jpeg", "--audio-length-mean", "0.1",
                    "--audio-sample-rates", "8", "--audio-depths", "16", "--audio-num-channels", "2");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> raw = Runs.jsonl(dir.resolve("profile_export_raw.jsonl"));
            assertThat(raw).hasSize(3);
            for (final JsonNode line : raw) {
                assertThat(line.path("error").isNull()).as(line.toString()).isTrue();
                final JsonNode content = line.path("request").path("messages").path(0).path("content");
                assertThat(content.size()).isEqualTo(4); // text, two images, one audio clip
                assertThat(content.path(0).path("type").asText()).isEqualTo("text");
                for (int i = 1; i <= 2; i++) {
                    assertThat(content.path(i).path("type").asText()).isEqualTo("image_url");
                    final String url = content.path(i).path("image_url").path("url").asText();
                    assertThat(url).startsWith("data:image/jpeg;base64,");
                    final BufferedImage img = ImageIO.read(new ByteArrayInputStream(
                            Base64.getDecoder().decode(url.substring(url.indexOf(',') + 1))));
                    assertThat(img.getWidth()).isEqualTo(32);
                    assertThat(img.getHeight()).isEqualTo(24);
                }
                final JsonNode audio = content.path(3);
                assertThat(audio.path("type").asText()).isEqualTo("input_audio");
                assertThat(audio.path("input_audio").path("format").asText()).isEqualTo("wav");
                final ByteBuffer wav = ByteBuffer.wrap(Base64.getDecoder().decode(
                        audio.path("input_audio").path("data").asText())).order(ByteOrder.LITTLE_ENDIAN);
                assertThat(new String(wav.array(), 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("RIFF");
                assertThat(wav.getShort(22)).isEqualTo((short) 2); // channels
                assertThat(wav.getInt(24)).isEqualTo(8000); // sample rate
                assertThat(wav.getShort(34)).isEqualTo((short) 16); // bits per sample
                assertThat(wav.getInt(40)).isEqualTo(800 * 2 * 2); // 0.1 s x 8000 Hz x 2 channels x 2 bytes
            }
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.toString()).contains("num_images");
        }
    }

    @Test
    void theSameSeedMakesTheSameMediaAndADirectorySourceIsScaled() throws Exception {
        final Path images = Files.createDirectories(tmp.resolve("src"));
        final BufferedImage red = new BufferedImage(4, 4, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                red.setRGB(x, y, 0xff0000);
            }
        }
        ImageIO.write(red, "png", images.resolve("red.png").toFile());
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String[] flags = {"--image-width-mean", "10", "--image-height-mean", "6", "--image-source",
                    images.toString(), "--image-source-sampling", "sequential-cycle"};
            final Path a = tmp.resolve("a");
            final Path b = tmp.resolve("b");
            assertThat(run(mock, a, flags).exitCode()).isZero();
            assertThat(run(mock, b, flags).exitCode()).isZero();
            final String urlA = Runs.jsonl(a.resolve("profile_export_raw.jsonl")).get(0).path("request")
                    .path("messages").path(0).path("content").path(1).path("image_url").path("url").asText();
            final BufferedImage img = ImageIO.read(new ByteArrayInputStream(
                    Base64.getDecoder().decode(urlA.substring(urlA.indexOf(',') + 1))));
            assertThat(img.getWidth()).isEqualTo(10);
            assertThat(img.getHeight()).isEqualTo(6);
            assertThat(img.getRGB(5, 3) & 0xffffff).isEqualTo(0xff0000);
            assertThat(Files.readString(a.resolve("inputs.json"))).isEqualTo(Files.readString(b.resolve("inputs.json")));
        }
    }

    @Test
    void unsupportedChoicesFailInOneLineBeforeTraffic() {
        final Runs.Result mp3 = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--audio-length-mean",
                "1", "--audio-format", "mp3", "--request-count", "1");
        assertThat(mp3.exitCode()).isEqualTo(2);
        assertThat(mp3.err().strip()).contains("--audio-format").contains("mp3").doesNotContain("\n");
        final Runs.Result assets = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9",
                "--image-width-mean", "8", "--image-height-mean", "8", "--image-source", "assets");
        assertThat(assets.exitCode()).isEqualTo(2);
        assertThat(assets.err().strip()).contains("--image-source").doesNotContain("\n");
    }
}
