/** Configuration: records of the effective config, the YAML loader, the CLI overlay, merge and validation. Depends on no other engine package. */
package io.aiperf.engine.config;
