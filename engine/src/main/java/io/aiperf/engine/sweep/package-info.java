/** Trials and cells: confidence aggregation across repeated runs of one configuration. */
package io.aiperf.engine.sweep;
