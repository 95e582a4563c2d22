package io.aiperf.jenkins;

import hudson.model.Descriptor.FormException;
import io.aiperf.engine.ci.ProfileSpec;
import java.util.List;
import net.sf.json.JSONObject;

/**
 * A submitted form (freestyle configuration or snippet generator) turned into the types the settings have: list
 * fields are one line of words ({@link ProfileSpec#words}), the engine's booleans come from a select whose blank
 * choice means "from the config file" (so an untouched form never overrides the file), blank numbers are unset.
 */
final class SettingsForm {
    static final List<String> LISTS = List.of("urls", "extraArgs", "cells");
    static final List<String> TRI_STATE = List.of("streaming", "resetKvCache", "serverProfiler");
    static final List<String> NUMBERS = List.of("concurrency", "requestCount", "warmupRequestCount", "numProfileRuns");
    static final List<String> DECIMALS = List.of("requestRate", "benchmarkDuration");

    private SettingsForm() {
    }

    static JSONObject normalize(final JSONObject form) throws FormException {
        for (final String field : LISTS) {
            if (form.get(field) instanceof String text) {
                form.element(field, ProfileSpec.words(text));
            }
        }
        for (final String field : TRI_STATE) {
            if (form.get(field) instanceof String text) {
                if (text.isBlank()) {
                    form.remove(field);
                } else if (text.equals("true") || text.equals("false")) {
                    form.element(field, Boolean.parseBoolean(text));
                } else {
                    throw new FormException(field + ": expected true, false or blank, not '" + text + "'", field);
                }
            }
        }
        for (final String field : NUMBERS) {
            number(form, field, true);
        }
        for (final String field : DECIMALS) {
            number(form, field, false);
        }
        return form;
    }

    /** A number field's text as a number, a blank one unset. */
    private static void number(final JSONObject form, final String field, final boolean whole) throws FormException {
        if (!(form.get(field) instanceof String text)) {
            return;
        }
        if (text.isBlank()) {
            form.remove(field);
            return;
        }
        try {
            form.element(field, whole ? (Object) Integer.valueOf(text.trim()) : (Object) Double.valueOf(text.trim()));
        } catch (NumberFormatException e) {
            throw new FormException(field + ": must be " + (whole ? "a whole number" : "a number") + ", not '" + text
                    + "'", field);
        }
    }

    /** A list field as the form's one line: words with blanks are quoted, so {@link ProfileSpec#words} reads them back. */
    static String line(final List<String> words) {
        final StringBuilder sb = new StringBuilder();
        for (final String w : words) {
            sb.append(sb.isEmpty() ? "" : " ");
            sb.append(w.isEmpty() || w.chars().anyMatch(Character::isWhitespace) ? (w.contains("'") ? "\"" + w + "\""
                    : "'" + w + "'") : w);
        }
        return sb.toString();
    }
}
