package dev.tclab.workshop;

/** Fired after an event changed in what its learners' pages show (a broadcast, a close). */
public record EventChanged(String eventId) {}
