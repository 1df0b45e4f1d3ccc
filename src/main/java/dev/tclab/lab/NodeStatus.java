package dev.tclab.lab;

/** One node's container as the engine sees it: {@code state} is the engine's word (running, exited, ...). */
public record NodeStatus(String node, boolean running, String state) {
}
