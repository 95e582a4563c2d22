/** The aiperf command line (picocli): parses, calls the engine, prints, exits with documented codes. */
package io.aiperf.engine.cli;
