package dev.tclab.cpu;

/**
 * News for a lab's page about its CPU: a node (or, when {@code node} is null, the lab's own kernel, which holds every
 * node) has used nearly all the CPU it may for over a minute outside a check, or no longer does ({@code text} null).
 */
public record LabCpuNotice(String labId, String node, String text) {

    public boolean cleared() {
        return text == null;
    }
}
