package io.aiperf.engine.ci;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where one CI call writes and archives, from its id and the part of the run it covers (its slot): the whole run
 * ({@code run}), some cells ({@code cells/<ids>}) or the merge of this build's cells ({@code aggregate}). Every
 * call owns one folder in the workspace ({@link #exportDir}, emptied before it runs, so a reused workspace never
 * leaks another build's files into it) and one archive folder ({@link #prefix}); earlier builds are read back from
 * the same archive folder for baselines. Distinct ids or slots never share a folder, and none is inside another.
 *
 * @param id the call's id (checked by {@link #idProblem})
 * @param slot {@code run}, {@code aggregate} or {@code cells/<encoded ids>} (a long list by its hash, see
 *             {@link #of})
 */
public record CallFolders(String id, String slot) {
    /** The id of a call that names none. */
    public static final String DEFAULT_ID = "aiperf";
    /** The root of every archive folder. */
    public static final String ROOT = "aiperf/";
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final String RUN = "run";
    private static final String AGGREGATE = "aggregate";
    private static final String CELLS = "cells/";
    /** The longest cell-list folder name that is spelled out; longer lists are {@link #hashed}. */
    static final int READABLE_CELLS = 64;

    /** A call that ran the given cells, or the whole run when there are none. */
    public static CallFolders of(final String id, final List<String> cells) {
        if (cells == null || cells.isEmpty()) {
            return new CallFolders(id, RUN);
        }
        final List<String> encoded = cells.stream().map(CallFolders::encode).toList();
        final String joined = String.join("+", encoded);
        return new CallFolders(id, CELLS + (joined.length() <= READABLE_CELLS ? joined : hashed(encoded, joined)));
    }

    /**
     * A cell list too long to spell out, named by its first id (cut short), {@code ~~}, its count and a hash of the
     * whole list: at most about 60 bytes whatever the cells (a folder name may have 255). {@link #encode} never
     * writes {@code ~~} (its {@code ~} is always followed by two hex digits), so no spelled-out list has this name.
     */
    private static String hashed(final List<String> encoded, final String joined) {
        final String first = encoded.get(0);
        return first.substring(0, Math.min(first.length(), 32)) + "~~" + encoded.size() + "-"
                + EngineLaunch.sha256(joined).substring(0, 16);
    }

    /** The merge of the cells this build archived under the id ({@code aiperfAggregate}). */
    public static CallFolders aggregate(final String id) {
        return new CallFolders(id, AGGREGATE);
    }

    /** Why the text is not a call id, or null. Ids become folder names, so they stay plain. */
    public static String idProblem(final String id) {
        if (id == null || id.isBlank() || ID.matcher(id.trim()).matches()) {
            return null;
        }
        return "'" + id + "' is not an id: use up to 64 letters, digits, '.', '_' or '-', starting with a letter or"
                + " digit";
    }

    /** The archive folder, e.g. {@code aiperf/<id>/run/}. */
    public String prefix() {
        return ROOT + id + "/" + slot + "/";
    }

    /** The archive folder of every cell call with this id; {@code aiperfAggregate} merges what is under it. */
    public static String cellsPrefix(final String id) {
        return ROOT + id + "/" + CELLS;
    }

    /** The call's own folder in the workspace under the base artifact directory, e.g. {@code aiperf-results/<id>/run}. */
    public String exportDir(final String artifactDir) {
        final String base = artifactDir.replace('\\', '/').replaceAll("/+$", "");
        return (base.isEmpty() || base.equals(".") ? "" : base + "/") + id + "/" + slot;
    }

    /** The id an archive folder belongs to, or null when it is not one of {@link #prefix}'s. */
    public static String idOf(final String prefix) {
        if (!prefix.startsWith(ROOT)) {
            return null;
        }
        final int end = prefix.indexOf('/', ROOT.length());
        return end < 0 ? null : prefix.substring(ROOT.length(), end);
    }

    /**
     * Claims the archive folder for a call in one build, or says why it cannot: two calls with the same id and slot
     * would overwrite each other's files, summary and the next build's baselines.
     *
     * @param owners the folders claimed so far in this build, each with a description of its call; updated
     * @param caller a description of this call, e.g. {@code aiperfProfile (flow node 12)}
     * @return null when claimed, else the error, naming both calls
     */
    public String claim(final Map<String, String> owners, final String caller) {
        final String earlier = owners.putIfAbsent(prefix(), caller);
        if (earlier == null) {
            return null;
        }
        return "id '" + id + "' is used twice in this build: by " + earlier + " and by " + caller + " (both would write "
                + prefix() + "); give each call its own id";
    }

    /**
     * A cell id as part of a folder name that no other id gives: ASCII letters, digits, '.', '_' and '-' stay, every
     * other byte (and a leading '.') becomes {@code ~HH}, so {@code a/b} and {@code a_b} stay apart and the '+' that
     * joins ids is unambiguous.
     */
    static String encode(final String cell) {
        final StringBuilder sb = new StringBuilder();
        for (final byte b : cell.getBytes(StandardCharsets.UTF_8)) {
            final char c = (char) (b & 0xff);
            final boolean plain = c < 0x80 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.');
            if (plain && !(c == '.' && sb.isEmpty())) {
                sb.append(c);
            } else {
                sb.append(String.format("~%02x", b & 0xff));
            }
        }
        return sb.toString();
    }
}
