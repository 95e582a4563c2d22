package io.aiperf.engine.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The images and audio of an input-file row, as upstream AIPerf's custom datasets give them: {@code image} or
 * {@code images} (URLs, {@code data:} URLs, or local files, which are sent inline as base64 {@code data:} URLs),
 * {@code audio} or {@code audios} ({@code <format>,<base64>}, or local {@code .wav}/{@code .mp3} files). A list may
 * also hold {@code {"name", "contents": [...]}} entries, whose contents are taken in order.
 */
final class MediaInputs {
    private static final Map<String, String> IMAGE_TYPES = Map.of("png", "image/png", "jpg", "image/jpeg",
            "jpeg", "image/jpeg", "gif", "image/gif", "webp", "image/webp", "bmp", "image/bmp");
    private static final Pattern INLINE_AUDIO = Pattern.compile("^(wav|mp3),[A-Za-z0-9+/=\\s]*$");

    private MediaInputs() {
    }

    /**
     * @param baseDir where relative file names are looked up after the working directory: the input file's folder
     * @param roots the folders a file may lie in, symbolic links resolved (the input file's, and --media-root's)
     * @param where "file:line: " for error messages
     */
    static List<Conversation.Media> of(final JsonNode row, final Path baseDir, final List<Path> roots,
                                       final String field, final String where) {
        final List<Conversation.Media> out = new ArrayList<>();
        for (final String value : values(row, "image", field, where)) {
            out.add(new Conversation.Media(Conversation.Media.Kind.IMAGE, image(value, baseDir, roots, field, where)));
        }
        for (final String value : values(row, "audio", field, where)) {
            out.add(new Conversation.Media(Conversation.Media.Kind.AUDIO, audio(value, baseDir, roots, field, where)));
        }
        return out;
    }

    /** Whether the row names any image or audio (without reading a file: {@link #of} reads them, once). */
    static boolean present(final JsonNode row) {
        return row.hasNonNull("image") || row.hasNonNull("audio") || listed(row.get("images"))
                || listed(row.get("audios"));
    }

    /** A plural field that {@link #of} would read something from, or reject: anything but absent, null or []. */
    private static boolean listed(final JsonNode v) {
        return v != null && !v.isNull() && !(v.isArray() && v.isEmpty());
    }

    private static List<String> values(final JsonNode row, final String singular, final String field,
                                       final String where) {
        final List<String> out = new ArrayList<>();
        final JsonNode one = row.get(singular);
        if (one != null && !one.isNull()) {
            if (!one.isTextual() || one.asText().isBlank()) {
                throw new ConfigException(field, where + "'" + singular + "' must be a non-empty string");
            }
            out.add(one.asText());
        }
        final JsonNode many = row.get(singular + "s");
        if (many != null && !many.isNull()) {
            if (!many.isArray()) {
                throw new ConfigException(field, where + "'" + singular + "s' must be a list");
            }
            for (final JsonNode v : many) {
                if (v.isTextual() && !v.asText().isBlank()) {
                    out.add(v.asText());
                } else if (v.isObject() && v.path("contents").isArray()) {
                    v.path("contents").forEach(c -> out.add(c.asText()));
                } else {
                    throw new ConfigException(field, where + "'" + singular + "s' entries must be strings or "
                            + "{\"name\", \"contents\"} objects");
                }
            }
        }
        return out;
    }

    private static String image(final String value, final Path baseDir, final List<Path> roots, final String field,
                                final String where) {
        final String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("data:")) {
            return value;
        }
        final Path file = file(value, baseDir, roots, field, where, "image");
        final String type = IMAGE_TYPES.get(extension(file));
        if (type == null) {
            throw new ConfigException(field, where + "image " + value + ": unsupported type; expected one of "
                    + String.join(", ", new java.util.TreeSet<>(IMAGE_TYPES.keySet())) + ", a URL or a data: URL");
        }
        return "data:" + type + ";base64," + base64(file, field, where);
    }

    private static String audio(final String value, final Path baseDir, final List<Path> roots, final String field,
                                final String where) {
        if (INLINE_AUDIO.matcher(value).matches()) {
            return value;
        }
        final Path file = file(value, baseDir, roots, field, where, "audio");
        final String format = extension(file);
        if (!format.equals("wav") && !format.equals("mp3")) {
            throw new ConfigException(field, where + "audio " + value + ": expected a .wav or .mp3 file, or "
                    + "'wav,<base64>' / 'mp3,<base64>'");
        }
        return format + "," + base64(file, field, where);
    }

    private static Path file(final String value, final Path baseDir, final List<Path> roots, final String field,
                             final String where, final String what) {
        final Path asGiven;
        try {
            asGiven = Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException(field, where + what + ": '" + value + "' is not a file name");
        }
        final Path file = Files.isRegularFile(asGiven) || asGiven.isAbsolute() || baseDir == null ? asGiven
                : baseDir.resolve(value);
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(field, where + what + " " + value + ": no such file (looked in the working "
                    + "directory and beside the input file)");
        }
        // A row is data, maybe from someone else: it must not make us send any readable file to the server.
        try {
            final Path real = file.toRealPath();
            for (final Path root : roots) {
                if (Files.isDirectory(root) && real.startsWith(root.toRealPath())) {
                    return real;
                }
            }
        } catch (IOException e) {
            throw new ConfigException(field, where + "cannot read " + what + " " + value + ": " + e.getMessage());
        }
        throw new ConfigException(field, where + what + " " + value + ": lies outside the input file's folder "
                + baseDir + " (symbolic links resolved); move it there, or allow its folder with --media-root DIR "
                + "(dataset.media_roots)");
    }

    private static String extension(final Path file) {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static String base64(final Path file, final String field, final String where) {
        try {
            return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException(field, where + "cannot read " + file + ": " + e.getMessage());
        }
    }
}
