package dev.tclab.runtime;

/**
 * The process of a stream (a terminal's shell, a sampler) in its container, as the app found it when it started: its
 * pid there, and its start time in clock ticks since boot, which the kernel sets and nobody can change, so a pid
 * taken again by another process is never mistaken for it.
 */
public record StreamProcess(long pid, long startTicks) {}
