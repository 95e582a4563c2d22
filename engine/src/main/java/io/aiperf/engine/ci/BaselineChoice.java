package io.aiperf.engine.ci;

import java.util.Locale;

/**
 * The step's {@code baseline} setting: {@code previousSuccessful} (the default), {@code previousNotFailed}, a build
 * number such as {@code 42}, or {@code lastN:5} (the mean of the last five successful builds).
 */
public record BaselineChoice(BaselineSelector.Policy policy, int argument) {
    public static final String DEFAULT = "previousSuccessful";

    /** @throws IllegalArgumentException with {@link #problem(String)}'s message */
    public static BaselineChoice parse(final String text) {
        final String t = text == null || text.isBlank() ? DEFAULT : text.trim();
        if (t.equalsIgnoreCase("previousSuccessful")) {
            return new BaselineChoice(BaselineSelector.Policy.PREVIOUS_SUCCESSFUL, 0);
        }
        if (t.equalsIgnoreCase("previousNotFailed")) {
            return new BaselineChoice(BaselineSelector.Policy.PREVIOUS_NOT_FAILED, 0);
        }
        if (t.matches("\\d{1,9}") && Integer.parseInt(t) > 0) {
            return new BaselineChoice(BaselineSelector.Policy.BUILD_NUMBER, Integer.parseInt(t));
        }
        final String lower = t.toLowerCase(Locale.ROOT);
        if (lower.matches("lastn:\\d{1,3}") && Integer.parseInt(lower.substring(6)) > 0) {
            return new BaselineChoice(BaselineSelector.Policy.MEAN_OF_LAST, Integer.parseInt(lower.substring(6)));
        }
        throw new IllegalArgumentException("'" + t + "' is not a baseline: use previousSuccessful, previousNotFailed,"
                + " a build number, or lastN:<count>");
    }

    /** Why the text is not a baseline setting, or null when it is. */
    public static String problem(final String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
