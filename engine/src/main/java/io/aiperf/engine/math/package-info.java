/** Special functions for the statistics (incomplete beta, log-gamma, Student t). */
package io.aiperf.engine.math;
