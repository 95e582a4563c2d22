package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Binds {@code dataset.images} and {@code dataset.audio} into {@link SyntheticMedia}, with upstream's defaults (the option table's). */
final class SyntheticMediaBinder {
    static final List<String> IMAGE_KEYS = List.of("width", "height", "batch_size", "format", "source", "sampling");
    static final List<String> AUDIO_KEYS = List.of("length", "batch_size", "format", "depths", "sample_rates",
            "num_channels");
    private static final List<String> SAMPLINGS = List.of("random-with-replacement", "shuffle-cycle",
            "sequential-cycle");

    private SyntheticMediaBinder() {
    }

    static SyntheticMedia bind(final Section d, final ConfigInputs inputs) {
        return new SyntheticMedia(d.has("images") ? images(d.section("images"), inputs) : null,
                d.has("audio") ? audio(d.section("audio")) : null);
    }

    private static SyntheticMedia.Images images(final Section s, final ConfigInputs inputs) {
        s.allowOnly(IMAGE_KEYS);
        final double[] width = dist(s, "width");
        final double[] height = dist(s, "height");
        final int batch = s.defaultedInteger("batch_size");
        if (batch < 0) {
            throw s.error("batch_size", "Input should be greater than or equal to 0");
        }
        final String format = s.defaultedString("format").toLowerCase(Locale.ROOT);
        if (!List.of("png", "jpeg", "random").contains(format)) {
            throw s.error("format", "expected png, jpeg or random, got '" + format + "'");
        }
        final String source = s.defaultedString("source");
        if (source.equals("assets")) {
            throw s.error("source", "upstream's bundled source images are not shipped here; give noise or a "
                    + "directory of images");
        }
        if (!source.equals("noise") && !inputs.isDirectory(source)) {
            throw s.error("source", "expected noise or a directory of images, got '" + source + "'");
        }
        final String sampling = s.defaultedString("sampling");
        if (!SAMPLINGS.contains(sampling)) {
            throw s.error("sampling", "expected one of " + String.join(", ", SAMPLINGS) + ", got '" + sampling + "'");
        }
        if (source.equals("noise") && !sampling.equals("random-with-replacement")) {
            throw s.error("sampling", "noise images have no finite pool: only random-with-replacement applies");
        }
        if (batch == 0 || width[0] <= 0 || height[0] <= 0) {
            return null; // upstream's default 0 x 0: no images
        }
        return new SyntheticMedia.Images(width[0], width[1], height[0], height[1], batch, format, source, sampling);
    }

    private static SyntheticMedia.Audio audio(final Section s) {
        s.allowOnly(AUDIO_KEYS);
        final double[] length = dist(s, "length");
        final int batch = s.defaultedInteger("batch_size");
        if (batch < 0) {
            throw s.error("batch_size", "Input should be greater than or equal to 0");
        }
        final String format = s.defaultedString("format").toLowerCase(Locale.ROOT);
        if (format.equals("mp3")) {
            throw s.error("format", "mp3 needs an MP3 encoder, which the JDK has not and this engine does not ship; "
                    + "use wav (upstream's default)");
        }
        if (!format.equals("wav")) {
            throw s.error("format", "expected wav or mp3, got '" + format + "'");
        }
        final List<Integer> depths = new ArrayList<>();
        for (final String v : listOrDefault(s, "depths")) {
            final int depth = (int) parse(s, "depths", v);
            if (!List.of(8, 16, 24, 32).contains(depth)) {
                throw s.error("depths", "expected 8, 16, 24 or 32 bits, got '" + v + "'");
            }
            depths.add(depth);
        }
        final List<Double> rates = new ArrayList<>();
        for (final String v : listOrDefault(s, "sample_rates")) {
            final double khz = parse(s, "sample_rates", v);
            if (!(khz > 0 && khz <= 384)) {
                throw s.error("sample_rates", "expected a rate in kHz (e.g. 16, 44.1), got '" + v + "'");
            }
            rates.add(khz);
        }
        final int channels = s.defaultedInteger("num_channels");
        if (channels < 1 || channels > 2) {
            throw s.error("num_channels", "expected 1 (mono) or 2 (stereo), got " + channels);
        }
        if (batch == 0 || length[0] <= 0) {
            return null; // upstream's default length 0: no audio
        }
        return new SyntheticMedia.Audio(length[0], length[1], batch, format, depths, rates, channels);
    }

    private static double[] dist(final Section s, final String key) {
        final Section d = s.section(key);
        d.allowOnly(List.of("mean", "stddev"));
        final double mean = d.defaultedNumber("mean");
        final double stddev = d.defaultedNumber("stddev");
        if (mean < 0) {
            throw d.error("mean", "Input should be greater than or equal to 0");
        }
        if (stddev < 0) {
            throw d.error("stddev", "Input should be greater than or equal to 0");
        }
        return new double[] {mean, stddev};
    }

    private static List<String> listOrDefault(final Section s, final String key) {
        final JsonNode raw = s.raw(key);
        if (raw == null || raw.isNull()) {
            return List.of(s.declaredDefault(key));
        }
        final List<String> out = new ArrayList<>();
        if (raw.isArray()) {
            raw.forEach(v -> out.add(v.asText()));
        } else {
            for (final String part : raw.asText().split("[,\\s]+")) {
                if (!part.isBlank()) {
                    out.add(part);
                }
            }
        }
        if (out.isEmpty()) {
            throw s.error(key, "give at least one value");
        }
        return out;
    }

    private static double parse(final Section s, final String key, final String v) {
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw s.error(key, "Input should be a valid number, got '" + v + "'");
        }
    }
}
