/**
 * Workshops: a host's events (lessons in order, join code, opening and closing times, seat cap), learners joining
 * them under a display name, the host's broadcasts, the live dashboard of the class read from the existing stores,
 * help on a learner's lab (every such action recorded) and the per-event export. Host routes need the role
 * {@code host}; a host sees only their own events (an admin all), and any other event answers 404.
 */
package dev.tclab.workshop;
