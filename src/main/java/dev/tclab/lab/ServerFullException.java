package dev.tclab.lab;

/** The server already runs its configured maximum of labs. */
public class ServerFullException extends Exception {

    public ServerFullException(int max) {
        super("The server is full: " + max + " labs are running, which is its limit. Try again in a few minutes, "
                + "or ask the host to stop unused labs or raise tclab.lab.max-running.");
    }
}
