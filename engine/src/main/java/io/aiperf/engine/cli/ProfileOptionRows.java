package io.aiperf.engine.cli;

import io.aiperf.engine.config.DeclaredOptions;
import java.util.List;

/** Hands profile's option table to the config binder (registered in META-INF/services). */
public final class ProfileOptionRows implements DeclaredOptions.Source {
    @Override
    public List<DeclaredOptions.Row> rows() {
        return OptionTable.PROFILE.rows();
    }
}
