package io.aiperf.jenkins;

import jenkins.model.Jenkins;

/** Help pages: a field the steps share with the freestyle builder has one page, the builder's. */
final class Help {
    private Help() {
    }

    /** The builder's help page for the field, or null when it has none. */
    static String shared(final String fieldName) {
        return Jenkins.get().getDescriptorOrDie(AiperfProfileBuilder.class).getHelpFile(fieldName);
    }
}
