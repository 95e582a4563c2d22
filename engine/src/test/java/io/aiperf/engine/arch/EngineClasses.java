package io.aiperf.engine.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The engine's classes (not its tests), imported once for every architecture rule of the test JVM. */
final class EngineClasses {
    static final JavaClasses ALL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.aiperf.engine");

    private EngineClasses() {
    }
}
