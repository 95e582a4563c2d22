/** The embedded OpenAI-compatible mock server with admin routes and fault injection. */
package io.aiperf.engine.mock;
