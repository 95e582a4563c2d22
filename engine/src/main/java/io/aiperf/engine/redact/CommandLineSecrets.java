package io.aiperf.engine.redact;

import io.aiperf.engine.config.Suggestions;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secrets a command line carries, found by their form rather than by the options a command has: a usage error
 * echoes arguments the command did not understand (a misspelt option, another command's option), so knowing the
 * command's own secret options is not enough. Found: the value of {@code --api-key} or a misspelling of it, or of an
 * option named like a secret ({@code --hf-token}); the JSON form of a header option; the value of a sensitive header
 * line ({@code Authorization:}, {@code x-api-key:}, {@code Cookie:}); a Bearer or Basic credential; a URL's
 * user-info and its sensitive query parameters ({@link SensitiveNames}). Everything else, the typo included, is
 * left to be shown.
 */
public final class CommandLineSecrets {
    /**
     * The shortest value hidden wherever it appears; a shorter one ({@code ?key=ab}) is hidden with its name, so that
     * hiding it does not blank every such letter of a message.
     */
    private static final int MIN_ALONE = 4;
    private static final Pattern OPTION = Pattern.compile("^--?([A-Za-z][A-Za-z0-9_-]*)(?:=(.*))?$", Pattern.DOTALL);
    private static final Pattern ATTACHED_HEADER = Pattern.compile("^-H=?(.+)$", Pattern.DOTALL);
    /** An option that takes a secret by its name: the last word is key, token, secret, password or credential(s). */
    private static final Pattern SECRET_OPTION = Pattern.compile(
            "(?i)(?:.*[-_])?(?:api-?key|key|token|secret|password|passwd|credentials?)");
    private static final Pattern USER_INFO = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#@\\s'\"]+)@");
    private static final Pattern QUERY_PAIR = Pattern.compile("[?&;]([^=&;#\\s]+)=([^&;#\\s]+)");
    private static final Pattern HEADER_LINE = Pattern.compile("^\\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\\s*:\\s*(\\S.*)$",
            Pattern.DOTALL);
    /** An HTTP credential as written in a header value: {@code Bearer xyz}, {@code Basic dXNlcjpwYXNz}. */
    private static final Pattern COLON_SPACE = Pattern.compile(":\\s");
    private static final Pattern CREDENTIAL = Pattern.compile("\\b(?:(?i:bearer)|Basic)\\s+([^\\s'\",]+)");

    private CommandLineSecrets() {
    }

    /** The secrets in these arguments, each once, longest first (a secret wins over its prefix); maybe none. */
    public static List<String> of(final String... args) {
        final Set<String> found = new LinkedHashSet<>();
        for (int i = 0; i < args.length; i++) {
            final String arg = args[i];
            inText(arg, found);
            final String next = i + 1 < args.length && !args[i + 1].startsWith("--") ? args[i + 1] : null;
            final Matcher option = OPTION.matcher(arg);
            final Matcher attached = ATTACHED_HEADER.matcher(arg);
            if (option.matches()) {
                if (option.group(2) != null) {
                    inText(option.group(2), found); // --header=x-api-key: K
                }
                final String value = option.group(2) != null ? option.group(2) : next;
                if (value != null && takesSecret(option.group(1))) {
                    found.add(value); // an API key is hidden whatever its length, as the run's redactor does
                } else if (value != null && takesHeader(option.group(1))) {
                    headerLine(value, found);
                    jsonHeaders(value, found);
                }
            } else if (attached.matches()) {
                inText(attached.group(1), found);
                headerLine(attached.group(1), found);
                jsonHeaders(attached.group(1), found);
            }
        }
        found.removeIf(String::isBlank);
        final List<String> longestFirst = new ArrayList<>(found);
        longestFirst.sort(Comparator.comparingInt(String::length).reversed());
        return longestFirst;
    }

    /** Secrets recognisable in any argument, whatever option it follows. */
    private static void inText(final String arg, final Set<String> found) {
        final Matcher userInfo = USER_INFO.matcher(arg);
        while (userInfo.find()) {
            final String info = userInfo.group(1);
            found.add(info);
            final String password = info.substring(info.indexOf(':') + 1);
            if (password.length() >= MIN_ALONE) {
                found.add(password);
            }
        }
        final Matcher pair = QUERY_PAIR.matcher(arg);
        while (pair.find()) {
            if (SensitiveNames.queryParameter(pair.group(1))) {
                hide(pair.group(0).substring(1), pair.group(2), found);
                hide(pair.group(0).substring(1), decoded(pair.group(2)), found);
            }
        }
        if (COLON_SPACE.matcher(arg).find()) {
            headerLine(arg, found); // written as a header is, "Name: value"; "time_to_first_token:p50" is not one
        }
        final Matcher credential = CREDENTIAL.matcher(arg);
        while (credential.find()) {
            hide(credential.group(0), credential.group(1), found);
        }
    }

    /** The value of a header line whose name is a secret's ({@code x-api-key: K}). */
    private static void headerLine(final String arg, final Set<String> found) {
        final Matcher header = HEADER_LINE.matcher(arg);
        if (header.matches() && SensitiveNames.header(header.group(1))) {
            hide(arg.strip(), header.group(2).strip(), found);
        }
    }

    /** The value alone when it is long enough not to blank unrelated text, else the value with its name. */
    private static void hide(final String named, final String value, final Set<String> found) {
        found.add(value.length() >= MIN_ALONE ? value : named);
    }

    /** A header option's JSON form may hold any header: all of it is hidden. */
    private static void jsonHeaders(final String value, final Set<String> found) {
        if (value.strip().startsWith("{")) {
            found.add(value);
        }
    }

    /** {@code --api-key}, an option named like a secret, or a misspelling of {@code --api-key} ({@code --api-kye}). */
    private static boolean takesSecret(final String name) {
        final String n = name.toLowerCase(Locale.ROOT).replace('_', '-');
        return SECRET_OPTION.matcher(n).matches() || Suggestions.distance(n, "api-key") <= 2;
    }

    /** {@code -H}, {@code --header} or a misspelling of it ({@code --headers}, {@code --heder}). */
    private static boolean takesHeader(final String name) {
        return name.equals("H") || Suggestions.distance(name.toLowerCase(Locale.ROOT), "header") <= 2;
    }

    private static String decoded(final String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw; // not percent-encoded text: the raw form is the secret
        }
    }
}
