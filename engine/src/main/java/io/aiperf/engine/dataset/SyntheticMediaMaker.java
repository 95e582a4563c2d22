package io.aiperf.engine.dataset;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.SyntheticMedia;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * Makes upstream AIPerf's synthetic images and audio for synthetic prompts (src-docs/datasets.md): images of
 * Normal(mean, stddev) size as base64 {@code data:} URLs (PNG or JPEG through {@code javax.imageio}, random noise or a
 * directory's images scaled to the size), audio as WAV clips of Gaussian noise of Normal(mean, stddev) seconds at a
 * drawn depth and sample rate. Seeded: the same seed makes the same bytes.
 */
final class SyntheticMediaMaker {
    /** Its own stream, so adding media does not change the prompts a seed makes. */
    private static final long STREAM = 0x6d65646961L;
    private final SyntheticMedia media;
    private final Random random;
    private final List<BufferedImage> sources;
    private final List<Integer> order = new ArrayList<>();
    private int next;

    SyntheticMediaMaker(final SyntheticMedia media, final Long seed) {
        this.media = media;
        this.random = seed == null ? new Random() : new Random(seed ^ STREAM);
        this.sources = media.images() != null && !media.images().fromNoise() ? load(media.images().source())
                : List.of();
    }

    /** Adds the configured images and audio to every turn. */
    List<Conversation> attach(final List<Conversation> conversations) {
        if (media.images() == null && media.audio() == null) {
            return conversations;
        }
        final List<Conversation> out = new ArrayList<>(conversations.size());
        for (final Conversation c : conversations) {
            final List<Conversation.Turn> turns = new ArrayList<>(c.turns().size());
            for (final Conversation.Turn t : c.turns()) {
                final List<Conversation.Media> parts = new ArrayList<>(t.media());
                if (media.images() != null) {
                    for (int i = 0; i < media.images().batchSize(); i++) {
                        parts.add(new Conversation.Media(Conversation.Media.Kind.IMAGE, image(media.images())));
                    }
                }
                if (media.audio() != null) {
                    for (int i = 0; i < media.audio().batchSize(); i++) {
                        parts.add(new Conversation.Media(Conversation.Media.Kind.AUDIO, "wav," + wav(media.audio())));
                    }
                }
                turns.add(new Conversation.Turn(t.prompt(), t.inputTokens(), t.outputTokens(), t.delayMs(),
                        t.passages(), parts, t.payload(), t.extra()));
            }
            out.add(new Conversation(c.id(), c.systemPrompt(), c.systemTokens(), turns, c.timestampMs()));
        }
        return out;
    }

    /** One image as a {@code data:} URL. */
    String image(final SyntheticMedia.Images spec) {
        final int width = draw(spec.widthMean(), spec.widthStddev());
        final int height = draw(spec.heightMean(), spec.heightStddev());
        final String format = spec.format().equals("random") ? (random.nextBoolean() ? "png" : "jpeg") : spec.format();
        final BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        if (sources.isEmpty()) {
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    img.setRGB(x, y, random.nextInt(1 << 24));
                }
            }
        } else {
            final Graphics2D g = img.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(sources.get(pick(spec.sampling())), 0, 0, width, height, null);
            g.dispose();
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(img, format, bytes)) {
                throw new IllegalStateException("no " + format + " writer in this JDK");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "data:image/" + format + ";base64," + Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** One WAV clip (PCM, little-endian; 8-bit unsigned, 16/24/32-bit signed), base64. */
    String wav(final SyntheticMedia.Audio spec) {
        final double seconds = Math.max(0.01, spec.lengthMean() + random.nextGaussian() * spec.lengthStddev());
        final int depth = spec.depths().get(random.nextInt(spec.depths().size()));
        final int rate = (int) Math.round(spec.sampleRatesKhz().get(random.nextInt(spec.sampleRatesKhz().size()))
                * 1000);
        final int bytesPerSample = depth / 8;
        final int frames = Math.max(1, (int) Math.round(seconds * rate));
        final int dataLength = frames * spec.channels() * bytesPerSample;
        final ByteBuffer b = ByteBuffer.allocate(44 + dataLength).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(36 + dataLength)
                .put("WAVE".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .put("fmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1)
                .putShort((short) spec.channels()).putInt(rate).putInt(rate * spec.channels() * bytesPerSample)
                .putShort((short) (spec.channels() * bytesPerSample)).putShort((short) depth)
                .put("data".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(dataLength);
        final long full = (1L << (depth - 1)) - 1;
        for (int i = 0; i < frames * spec.channels(); i++) {
            final long v = (long) (Math.max(-1, Math.min(1, random.nextGaussian() * 0.3)) * full);
            switch (bytesPerSample) {
                case 1 -> b.put((byte) (v + 128)); // 8-bit WAV is unsigned
                case 2 -> b.putShort((short) v);
                case 3 -> b.put((byte) v).put((byte) (v >> 8)).put((byte) (v >> 16));
                default -> b.putInt((int) v);
            }
        }
        return Base64.getEncoder().encodeToString(b.array());
    }

    private int draw(final double mean, final double stddev) {
        return Math.max(1, (int) Math.round(mean + random.nextGaussian() * stddev));
    }

    /** The next source image's index under the sampling rule. */
    private int pick(final String sampling) {
        switch (sampling) {
            case "shuffle-cycle" -> {
                if (next == order.size()) {
                    order.clear();
                    for (int i = 0; i < sources.size(); i++) {
                        order.add(i);
                    }
                    Collections.shuffle(order, random);
                    next = 0;
                }
                return order.get(next++);
            }
            case "sequential-cycle" -> {
                return next++ % sources.size();
            }
            default -> {
                return random.nextInt(sources.size());
            }
        }
    }

    /** The directory's images (png, jpeg, gif, bmp), in sorted name order. */
    private static List<BufferedImage> load(final String dir) {
        final List<BufferedImage> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(dir))) {
            for (final Path f : files.sorted().toList()) {
                final String name = f.getFileName().toString().toLowerCase(Locale.ROOT);
                if (!name.matches(".*\\.(png|jpe?g|gif|bmp)$")) {
                    continue;
                }
                final BufferedImage img = ImageIO.read(f.toFile());
                if (img == null) {
                    throw new ConfigException("--image-source", f + " is not an image this JDK can read");
                }
                out.add(img);
            }
        } catch (IOException e) {
            throw new ConfigException("--image-source", "cannot read " + dir + ": " + e.getMessage());
        }
        if (out.isEmpty()) {
            throw new ConfigException("--image-source", dir + " holds no png, jpeg, gif or bmp image");
        }
        return out;
    }
}
