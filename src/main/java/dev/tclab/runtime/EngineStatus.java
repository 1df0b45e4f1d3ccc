package dev.tclab.runtime;

/** Whether the container engine answers; when it does not, {@code error} says why in words an operator can act on. */
public record EngineStatus(boolean reachable, String version, String endpoint, String error) {

    public static EngineStatus up(String version, String endpoint) {
        return new EngineStatus(true, version, endpoint, null);
    }

    public static EngineStatus down(String endpoint, String error) {
        return new EngineStatus(false, null, endpoint, error);
    }
}
