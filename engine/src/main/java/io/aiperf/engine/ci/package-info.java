/**
 * What CI integrations need, free of any CI types: a step spec to the engine command, exit code and outcome files
 * to a build verdict, the archive plan and the baseline choice. The Jenkins plugin only wires Jenkins to these.
 */
package io.aiperf.engine.ci;
