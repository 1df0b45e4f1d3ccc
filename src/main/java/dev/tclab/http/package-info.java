/**
 * The HTTP and WebSocket vocabulary every resource shares (the error body, socket close codes), kept apart from
 * {@code web} so that feature packages with their own resources never depend on the web layer. Imports nothing of
 * tclab.
 */
package dev.tclab.http;
