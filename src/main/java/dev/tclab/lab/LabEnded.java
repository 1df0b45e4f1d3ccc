package dev.tclab.lab;

/** CDI event: a lab stopped, failed or died, so whatever was kept for it (baselines, check runs) can go. */
public record LabEnded(String labId) {}
