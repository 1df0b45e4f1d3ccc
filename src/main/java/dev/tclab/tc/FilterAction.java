package dev.tclab.tc;

/**
 * An action attached to a filter. For {@code mirred}: {@code direction} is {@code egress} or {@code ingress},
 * {@code verb} is {@code redirect} or {@code mirror}, {@code targetDev} the device (e.g. {@code ifb0}).
 * {@code control} is what happens to the packet afterwards ({@code stolen}, {@code pipe}, ...). Fields an action
 * kind does not have are null.
 */
public record FilterAction(int order, String kind, String direction, String verb, String targetDev, String control) {}
