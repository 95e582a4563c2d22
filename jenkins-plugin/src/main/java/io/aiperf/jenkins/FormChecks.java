package io.aiperf.jenkins;

import com.cloudbees.plugins.credentials.CredentialsMatchers;
import com.cloudbees.plugins.credentials.CredentialsProvider;
import com.cloudbees.plugins.credentials.common.StandardListBoxModel;
import hudson.model.Item;
import hudson.model.Queue;
import hudson.model.queue.Tasks;
import hudson.security.ACL;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.aiperf.engine.ci.ProfileSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;
import org.springframework.security.core.Authentication;

/** What the forms' field checks and the credentials dropdown share. The rules themselves are {@link ProfileSpec}'s. */
final class FormChecks {
    private FormChecks() {
    }

    /**
     * Whether the user may configure the item (or Jenkins, outside an item). Only they get answers; a user who may
     * only read the form (Extended Read) gets OK, as core's checks answer, instead of an error for every field.
     */
    static boolean mayConfigure(final Item item) {
        return item == null ? Jenkins.get().hasPermission(Jenkins.ADMINISTER) : item.hasPermission(Item.CONFIGURE);
    }

    /** A form from name, value pairs; values may be null (a field the browser did not send). */
    static Map<String, String> form(final String... namesAndValues) {
        final Map<String, String> form = new HashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            form.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return form;
    }

    /** The problem {@link ProfileSpec#validate()} reports for one field of a form, or OK. */
    static FormValidation check(final Item item, final String field, final Map<String, String> form) {
        if (!mayConfigure(item)) {
            return FormValidation.ok();
        }
        try {
            final String problem = ProfileSpec.fromForm(form).validate().get(field);
            return problem == null ? FormValidation.ok() : FormValidation.error(problem);
        } catch (IllegalArgumentException e) {
            return e.getMessage().startsWith(field + ":") ? FormValidation.error(e.getMessage()) : FormValidation.ok();
        }
    }

    /**
     * Secret text credentials the item may use, listed as it will run (a job runs under the authentication a
     * {@code QueueItemAuthenticator} gives it; anything else, such as a folder, as SYSTEM), so the list offers only
     * what the build will find; the current value is kept, and is all a user without Extended Read or Use Item on the
     * item (Administer when there is no item) sees.
     */
    static ListBoxModel credentials(final Item item, final String current) {
        final StandardListBoxModel model = new StandardListBoxModel();
        final String kept = current == null ? "" : current;
        if (item == null ? !Jenkins.get().hasPermission(Jenkins.ADMINISTER)
                : !item.hasAnyPermission(Item.EXTENDED_READ, CredentialsProvider.USE_ITEM)) {
            model.includeCurrentValue(kept);
            return model;
        }
        final Authentication runsAs = item instanceof Queue.Task task ? Tasks.getAuthenticationOf2(task) : ACL.SYSTEM2;
        model.includeEmptyValue().includeMatchingAs(runsAs, item, StringCredentials.class, List.of(),
                CredentialsMatchers.always());
        model.includeCurrentValue(kept);
        return model;
    }
}
