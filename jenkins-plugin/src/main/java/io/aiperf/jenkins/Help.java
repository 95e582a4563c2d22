package io.aiperf.jenkins;

import jenkins.model.Jenkins;

/** Help pages: a field a step shares with a freestyle build step or recorder has one page, the freestyle one's. */
final class Help {
    private Help() {
    }

    /** The profile builder's help page for the field, or null when it has none. */
    static String shared(final String fieldName) {
        return of(AiperfProfileBuilder.class, fieldName);
    }

    /** Another describable's help page for the field, or null when it has none. */
    static String of(final Class<? extends hudson.model.Describable> owner, final String fieldName) {
        return Jenkins.get().getDescriptorOrDie(owner).getHelpFile(fieldName);
    }
}
