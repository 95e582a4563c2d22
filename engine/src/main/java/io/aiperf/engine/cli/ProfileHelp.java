package io.aiperf.engine.cli;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * {@code aiperf profile --help} grouped by topic, as upstream AIPerf groups its options (endpoint, input, load,
 * output, ...), instead of one alphabetical list of some 140 options; a short synopsis, and examples at the end.
 * Each option names its topic ({@link Topic}); one with none is listed under "Other options", never left out. A
 * command that adds options of its own to profile's ({@code compare}) lists those first, under its name, since they
 * are what its help is read for.
 */
final class ProfileHelp {
    private ProfileHelp() {
    }

    /** The topic an option names with {@link Topic} (on its field or its mixin class), or null for none. */
    static HelpTopic topicOf(final OptionSpec o) {
        if (o.usageHelp() || o.versionHelp()) {
            return HelpTopic.HELP;
        }
        if (!(o.userObject() instanceof Field f)) {
            return null;
        }
        final Topic topic = f.isAnnotationPresent(Topic.class) ? f.getAnnotation(Topic.class)
                : f.getDeclaringClass().getAnnotation(Topic.class);
        return topic == null ? null : topic.value();
    }

    /**
     * Installs the grouped option list and a short synopsis on a command with profile's options.
     *
     * @param parameters the synopsis's words after {@code [OPTIONS]} ("" for none)
     */
    static void install(final CommandLine command, final String parameters) {
        command.getCommandSpec().usageMessage().customSynopsis(command.getCommandSpec().qualifiedName(" ")
                + " [OPTIONS]" + parameters);
        command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
        command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, ProfileHelp::optionList);
    }

    private static String optionList(final CommandLine.Help help) {
        final String command = help.commandSpec().name();
        final Map<String, List<OptionSpec>> groups = new LinkedHashMap<>();
        final List<String> own = command.equals("profile") ? List.of() : ownOptions(help);
        final List<OptionSpec> ownSpecs = new ArrayList<>();
        groups.put(Character.toUpperCase(command.charAt(0)) + command.substring(1) + " options", ownSpecs);
        for (final HelpTopic t : HelpTopic.values()) {
            groups.put(t.title, new ArrayList<>());
        }
        final List<OptionSpec> other = new ArrayList<>();
        for (final OptionSpec o : help.commandSpec().options()) {
            final HelpTopic topic = topicOf(o);
            if (o.hidden()) {
                continue;
            }
            if (own.contains(o.longestName())) {
                ownSpecs.add(o);
            } else if (topic != null) {
                groups.get(topic.title).add(o);
            } else if (command.equals("profile")) {
                other.add(o);
            }
        }
        groups.put("Other options", other);
        final StringBuilder sb = new StringBuilder();
        groups.forEach((title, options) -> {
            final CommandLine.Help.Layout layout = help.createDefaultLayout();
            options.forEach(o -> layout.addOption(OptionTable.describe(o), help.parameterLabelRenderer()));
            if (!layout.toString().isEmpty()) {
                sb.append(String.format("%n%s:%n", title)).append(layout);
            }
        });
        return sb.toString();
    }

    /** The options a command declares itself, not through the mixins it shares with profile. */
    private static List<String> ownOptions(final CommandLine.Help help) {
        final Set<String> mixed = new LinkedHashSet<>();
        help.commandSpec().mixins().values().forEach(m -> m.options().forEach(o -> mixed.add(o.longestName())));
        return help.commandSpec().options().stream().filter(o -> !o.usageHelp() && !o.versionHelp())
                .map(OptionSpec::longestName).filter(n -> !mixed.contains(n)).toList();
    }
}
