/**
 * The suite's parts: what each failsafe fork runs as one JUnit run, so that Quarkus starts its app once per test
 * profile in a part, not once per class (quarkus#43979). Failsafe hands the parts out in the order of their names,
 * each to the next free fork; docs/testing.md says why the parts are cut as they are. Every test class belongs to
 * exactly one part ({@code PartsTest}).
 */
package dev.tclab.parts;
